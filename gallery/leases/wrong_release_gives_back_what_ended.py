"""WRONG: a release gives back every request the lease claimed, ended ones too.

The lease claimed a and b; a succeeded.  Releasing the lease must give back
what it still holds, b, and leave a ended: an ended request never changes
(rule 11).  Going over what the lease claimed rather than what it holds
queues a again: its result is run a second time and its attempt refunded.
"""

from __future__ import annotations

from gallery.leases.wrong_scans_the_queue import Queue as Written
from variants.leases.records import Fenced, Item, Lease  # noqa: F401 (the records, read by the suite)

FAILS = "lease_retries"


class Queue(Written):
    def release(self, lease_id: int, *, now: int) -> None:
        lease = self._get_lease(lease_id)
        if self._releasable(lease, now):
            lease.held = list(lease.items)  # the mistake: what it claimed, not what it holds
        super().release(lease_id, now=now)
