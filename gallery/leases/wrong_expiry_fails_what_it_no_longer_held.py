"""WRONG: an expired lease fails every request it claimed, those already ended too.

When a lease expires only the requests it still holds fail (rule 8): one
completed under it has its result, and never changes again (rule 11).
Failing every request the lease claimed sends a succeeded request back to
the queue, to run twice.
"""

from __future__ import annotations

from collections.abc import Hashable

from gallery.leases.wrong_scans_the_queue import Queue as Written
from gallery.leases.wrong_scans_the_queue import _Lease
from variants.leases.records import Fenced, Item, Lease  # noqa: F401 (the records, read by the suite)

FAILS = "lease_expiry"


class Queue(Written):
    def _end_lease(self, lease: _Lease, now: int) -> list[Hashable]:
        lease.held = list(lease.items)  # the mistake: what it claimed, not what it still holds
        return super()._end_lease(lease, now)
