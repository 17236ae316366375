"""WRONG: the budget counts the requests' own tokens, not the padded batch.

A batch is padded to its longest member: requests of 2, 2 and 5 tokens cost
3 x 5 = 15, not 9.  Counting 9 lets batches past the budget, and past the
memory the budget was protecting.
"""

from __future__ import annotations

from gallery.batcher.right_rescan import Batcher as Written
from gallery.batcher.right_rescan import (  # noqa: F401 (its own types, read by the suite)
    Closed,
    Config,
    Entry,
    QueueFull,
    Request,
)

FAILS = "batch_tokens"


class Batcher(Written):
    def _cost(self, entries: list[Entry]) -> int:
        return sum(e.request.tokens for e in entries)  # the mistake: no padding
