"""WRONG: a request is dead-lettered once attempts + 1 reaches max_attempts, one attempt early.

A failed attempt is retried while attempts < max_attempts, the attempts
counted at the claim, the failed one included (rule 9).  Counting the failed
attempt a second time, `attempts + 1 < max_attempts`, buries a request after
max_attempts - 1 attempts: with max_attempts 2 it is never retried at all,
and a request that one more try would have saved is a dead letter.
"""

from __future__ import annotations

from gallery.leases.wrong_scans_the_queue import Queue as Written
from gallery.leases.wrong_scans_the_queue import _Request
from variants.leases.records import Fenced, Item, Lease  # noqa: F401 (the records, read by the suite)

FAILS = "lease_retries"


class Queue(Written):
    def _retried(self, request: _Request) -> bool:
        return request.attempts + 1 < self._max_attempts  # the mistake: the attempt counted twice
