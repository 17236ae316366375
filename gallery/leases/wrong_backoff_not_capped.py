"""WRONG: the backoff is never capped: randint(0, base * 2 ** (attempts - 1)).

Full jitter draws from [0, min(cap, base * 2 ** (attempts - 1))] (rule 9).
Without the cap the range doubles at every attempt for ever: by the
fortieth a request waits longer than the service will run, and the
exponential makes a huge integer on the way.
"""

from __future__ import annotations

from gallery.leases.wrong_scans_the_queue import Queue as Written
from variants.leases.records import Fenced, Item, Lease  # noqa: F401 (the records, read by the suite)

FAILS = "lease_retries"


class Queue(Written):
    def _ceiling(self, attempts: int) -> int:
        doubling: int = 2 ** (attempts - 1)
        return self._base * doubling  # the mistake: no min(cap, ...)
