"""WRONG: a lease expires when now - renewed_at >= lease_ticks, a tick early.

Exactly lease_ticks after its last renewal the lease is still live: the
detector's boundary, `now - renewed_at > lease_ticks` (rule 8).  With `>=` a
worker that renews on schedule, every lease_ticks, loses its lease at the
moment it renews, and its result is fenced though it was never late.
"""

from __future__ import annotations

from gallery.leases.wrong_scans_the_queue import Queue as Written
from gallery.leases.wrong_scans_the_queue import _Lease
from variants.leases.records import Fenced, Item, Lease  # noqa: F401 (the records, read by the suite)

FAILS = "lease_expiry"


class Queue(Written):
    def _expired(self, lease: _Lease, now: int) -> bool:
        return now - lease.renewed_at >= self._lease_ticks  # the mistake: >= for >
