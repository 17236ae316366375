"""WRONG: a batch fits the token budget only *below* it (`<`), not at it.

The budget is the most a batch may hold: three requests of 4 tokens make 12
padded tokens, within a budget of 12.  With `<` the third is left out, the
GPU runs a third short, and a request of exactly the budget fits no batch at
all, so it blocks its bucket for ever.  `len(batch) x longest <= budget`.
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
    def _fits(self, entries: list[Entry]) -> bool:
        budget = self.config.token_budget
        return len(entries) <= self.config.max_batch_size and (
            budget is None or self._cost(entries) < budget  # the mistake: < where <= is meant
        )
