"""WRONG: a lease past its deadline still writes, until expire() has ended it.

The writes check only whether the lease is over, and a lease is over only
once expire() (or a claim) has handled it.  A worker whose lease has run
out writes its result before anyone notices, though the request is due to
go back to the queue: a lease that has expired is fenced whether or not
expire() has run (rules 6, 7).
"""

from __future__ import annotations

from collections.abc import Hashable

from gallery.leases.wrong_scans_the_queue import Queue as Written
from gallery.leases.wrong_scans_the_queue import _Lease
from variants.leases.records import Fenced, Item, Lease  # noqa: F401 (the records, read by the suite)

FAILS = "lease_fencing"


class Queue(Written):
    def _holds(self, lease: _Lease, item_id: Hashable, now: int) -> bool:
        return not lease.over and item_id in lease.held  # the mistake: the deadline not checked
