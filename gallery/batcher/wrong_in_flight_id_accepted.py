"""WRONG: an id is refused while it is queued, but accepted again while in flight.

An id is unique among the requests queued or in flight (rule 5): it is
free again only once its request has ended.  Checking the queue alone, a
second request with the id of one on the GPU is accepted, and when the
batch completes, or the caller cancels the id, two requests answer to one
name: a result reaches the wrong caller, or a cancel hits the wrong one.
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
        if request.tokens <= 0 or (request.timeout is not None and request.timeout < 0):
            raise ValueError(f"bad request {request}")
        if budget is not None and request.tokens > budget:
            raise ValueError(f"{request.tokens} tokens can never fit a budget of {budget}")
        if request.id in {e.request.id for e in self.waiting}:  # the mistake: queued ones only
            raise ValueError(f"duplicate request id {request.id!r}")
