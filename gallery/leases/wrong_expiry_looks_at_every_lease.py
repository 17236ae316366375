"""WRONG: to find the leases due, every lease ever claimed is looked at.

Right in every answer, and the cost of a claim grows with the leases
outstanding and with every lease that has ended: a queue with a hundred
thousand requests in flight does a hundred thousand checks per claim to
find the handful due.  Keep the live leases by deadline (a heap, or a
sorted list) and take only from its front (rule 12).
"""

from __future__ import annotations

from collections.abc import Hashable

from gallery.leases.right_sorted_lists import (  # noqa: F401 (its own records, read by the suite)
    EXPIRED,
    Fenced,
    Item,
    Lease,
)
from gallery.leases.right_sorted_lists import Queue as Written

FAILS = "lease_cost"


class Queue(Written):
    def _expire_due(self, now: int) -> list[Hashable]:
        gone: list[Hashable] = []
        for claim in list(self._claims.values()):  # the mistake: every lease, in claim order
            if claim.holding and claim.renewed_at + self._ticks < now:
                self._drop_deadline(claim)
                held, claim.holding = list(claim.holding), {}
                for item_id in held:
                    self._attempt_failed(self._reqs[item_id], EXPIRED, now)
                gone += held
        return gone
