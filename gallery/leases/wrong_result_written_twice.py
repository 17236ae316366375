"""WRONG: a write checks what the lease claimed, not what it still holds.

complete asks whether the request is one the lease claimed, so while the
lease lives it can complete the same request again and overwrite its result
(or fail a request that already succeeded).  A result is written once: only
what the lease still holds may be written (rule 7).
"""

from __future__ import annotations

from collections.abc import Hashable

from gallery.leases.wrong_scans_the_queue import Queue as Written
from gallery.leases.wrong_scans_the_queue import _Lease
from variants.leases.records import Fenced, Item, Lease  # noqa: F401 (the records, read by the suite)

FAILS = "lease_fencing"


class Queue(Written):
    def _holds(self, lease: _Lease, item_id: Hashable, now: int) -> bool:
        return self._live(lease, now) and item_id in lease.items  # the mistake: items, not held
