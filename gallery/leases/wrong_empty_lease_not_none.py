"""WRONG: a claim with nothing ready returns an empty lease, not None.

When no request is ready a claim is None (rule 4).  An empty lease costs a
lease id, and a worker that loops `while lease := q.claim(...)` never
stops: it renews, and holds, nothing.
"""

from __future__ import annotations

from gallery.leases.wrong_scans_the_queue import Queue as Written
from variants.leases.records import Fenced, Item, Lease  # noqa: F401 (the records, read by the suite)

FAILS = "lease_claims"


class Queue(Written):
    def claim(self, worker: str, *, now: int, limit: int) -> Lease | None:
        lease = super().claim(worker, now=now, limit=limit)
        return self._grant(worker, (), now) if lease is None else lease  # the mistake
