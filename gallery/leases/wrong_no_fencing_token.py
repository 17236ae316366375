"""WRONG: any lease may write a request that is leased: the lease id is not checked.

The lease id is the fencing token: a write is accepted only from the lease
that holds the request now (rule 7).  Checking only that the request is
leased lets a slow worker, whose lease expired and whose request was given
to another, overwrite the new worker's result.
"""

from __future__ import annotations

from collections.abc import Hashable

from gallery.leases.wrong_scans_the_queue import Queue as Written
from gallery.leases.wrong_scans_the_queue import _Lease
from variants.leases.records import Fenced, Item, Lease  # noqa: F401 (the records, read by the suite)

FAILS = "lease_fencing"


class Queue(Written):
    def _holds(self, lease: _Lease, item_id: Hashable, now: int) -> bool:
        return self._requests[item_id].status == "leased"  # the mistake: whose lease, not asked
