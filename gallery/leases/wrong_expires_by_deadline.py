"""WRONG: expire handles the due leases soonest deadline first, not in claim order.

The jitter draws are part of the contract: one per retried failure, in the
order handled, and expire handles the leases in the order they were claimed
(rule 9).  Ordering them by deadline (renewed_at) is natural with a heap of
deadlines, but a lease renewed late is then handled after one claimed after
it, and each request gets another's delay.
"""

from __future__ import annotations

from gallery.leases.wrong_scans_the_queue import Queue as Written
from gallery.leases.wrong_scans_the_queue import _Lease
from variants.leases.records import Fenced, Item, Lease  # noqa: F401 (the records, read by the suite)

FAILS = "lease_retries"


class Queue(Written):
    def _due(self, now: int) -> list[_Lease]:
        due = super()._due(now)
        return sorted(due, key=lambda lease: (lease.renewed_at, lease.id))  # the mistake
