"""WRONG: a request longer than the token budget is accepted.

It fits no batch, so it stays at the head of its bucket for ever, and every
request behind it waits with it.  It must be refused at submit.
"""

from __future__ import annotations

from gallery.batcher.right_rescan import Batcher as Written
from gallery.batcher.right_rescan import (  # noqa: F401 (its own types, read by the suite)
    Closed,
    Config,
    QueueFull,
    Request,
)

FAILS = "batch_tokens"


class Batcher(Written):
    def _validate(self, request: Request) -> None:
        budget = self.config.token_budget
        if budget is not None and request.tokens > budget:
            return  # the mistake: accepted anyway
        super()._validate(request)
