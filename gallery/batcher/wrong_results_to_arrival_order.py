"""WRONG: results matched to the requests in arrival order, not the batch's order.

The batch lists its requests longest first, so the model returns results in
that order; matching them to the arrival order hands each caller someone
else's result.  Match results by position in the list the model was given.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from gallery.batcher.right_rescan import Batcher as Written
from gallery.batcher.right_rescan import (  # noqa: F401 (its own types, read by the suite)
    Closed,
    Config,
    Ending,
    QueueFull,
    Request,
)

FAILS = "batch_complete"


class Batcher(Written):
    def complete(
        self, batch_id: int, outcome: Sequence[Any] | BaseException, *, now: int
    ) -> list[Ending]:
        if batch_id in self.flying:
            self.flying[batch_id].sort(key=lambda e: e.seq)  # the mistake: reordered
        return super().complete(batch_id, outcome, now=now)
