"""WRONG: the backoff doubles one attempt early: base * 2 ** attempts.

The first retry waits up to base, the second up to 2 * base: the ceiling
is min(cap, base * 2 ** (attempts - 1)) with the attempts counted so far
(rule 9).  Using the attempts as the exponent draws from twice the range at
every attempt below the cap, so every delay after the first draw is off.
"""

from __future__ import annotations

from gallery.leases.wrong_scans_the_queue import Queue as Written
from variants.leases.records import Fenced, Item, Lease  # noqa: F401 (the records, read by the suite)

FAILS = "lease_retries"


class Queue(Written):
    def _ceiling(self, attempts: int) -> int:
        doubling: int = 2**attempts  # the mistake: attempts, not attempts - 1
        return min(self._cap, self._base * doubling)
