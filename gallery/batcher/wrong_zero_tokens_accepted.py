"""WRONG: only negative token counts refused, so a request of 0 tokens is queued.

A request has at least one token; `tokens < 0` lets 0 through, and a batch
of it reports 0 padded tokens: a launch the budget counts as free, for a
request that cannot exist.  Refuse `tokens < 1`.
"""

from __future__ import annotations

from gallery.batcher.right_rescan import Batcher as Written
from gallery.batcher.right_rescan import (  # noqa: F401 (its own types, read by the suite)
    Closed,
    Config,
    QueueFull,
    Request,
)

FAILS = "batch_validation"


class Batcher(Written):
    def _validate(self, request: Request) -> None:
        budget = self.config.token_budget
        bad_timeout = request.timeout is not None and request.timeout < 0
        if request.tokens < 0 or bad_timeout:  # the mistake: < 0 where < 1 is meant
            raise ValueError(f"bad request {request}")
        if budget is not None and request.tokens > budget:
            raise ValueError(f"{request.tokens} tokens can never fit a budget of {budget}")
        if request.id in {e.request.id for e in self.waiting} | self._flying_ids():
            raise ValueError(f"duplicate request id {request.id!r}")
