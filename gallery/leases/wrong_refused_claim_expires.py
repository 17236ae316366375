"""WRONG: a claim expires the due leases before it checks its limit.

A claim refused for its limit has already expired the leases due: requests
have gone back to the queue and their draws are spent (the clock itself is
left where it was).
An operation that raises changes nothing, so every check comes before the
first change (rule 3).
"""

from __future__ import annotations

from gallery.leases.wrong_scans_the_queue import Queue as Written
from variants.leases.records import Fenced, Item, Lease  # noqa: F401 (the records, read by the suite)

FAILS = "lease_validation"


class Queue(Written):
    def claim(self, worker: str, *, now: int, limit: int) -> Lease | None:
        self._check_now(now)
        self._expire(now)  # the mistake: before the limit is checked
        return super().claim(worker, now=now, limit=limit)
