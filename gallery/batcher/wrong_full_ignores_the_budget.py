"""WRONG: a batch with no room left in its token budget is not taken for full.

Rule 9: a batch is full if a request was left out, if it holds
max_batch_size requests, or if no request at all could join it:
`(len(batch) + 1) x longest > token_budget`.  Forgetting the budget, one
request of 6 tokens alone in the queue with a budget of 10 waits max_wait
for company that could never join it (two would pad to 12).
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
    def _ready(self, group: list[Entry], take: list[Entry], now: int) -> bool:
        full = len(take) < len(group) or len(take) >= self.config.max_batch_size
        # the mistake: no test of the budget's room for one more
        waited = any(now - e.arrival >= self.config.max_wait for e in group)
        return full or waited or self.shut
