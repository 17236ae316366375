"""WRONG: the token budget checked with `if token_budget:`, so a budget of 0 passes.

`None` means no budget, but 0 is falsy too: `if self.token_budget:` skips the
check for exactly the budget it should refuse.  A budget of 0 fits no
request, so every request is refused at submit.  Test `is not None`.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass

from gallery.batcher.right_rescan import Batcher as Written
from gallery.batcher.right_rescan import (  # noqa: F401 (its own types, read by the suite)
    Closed,
    QueueFull,
    Request,
)

FAILS = "batch_validation"


@dataclass(frozen=True)
class Config:
    max_batch_size: int
    max_wait: int
    max_queue: int
    max_in_flight: int = 1
    token_budget: int | None = None
    ageing: int | None = None
    buckets: tuple[int, ...] = ()

    def __post_init__(self) -> None:
        positive = [self.max_batch_size, self.max_queue, self.max_in_flight]
        if self.token_budget:  # the mistake: 0 is falsy, so a budget of 0 is never checked
            positive.append(self.token_budget)
        if min(positive) <= 0 or self.max_wait < 0 or (self.ageing or 0) < 0:
            raise ValueError(f"impossible configuration: {self}")
        edges = list(self.buckets)
        if any(a >= b for a, b in itertools.pairwise(edges)) or min(edges, default=1) < 1:
            raise ValueError(f"buckets must be increasing positive lengths: {self.buckets}")


class Batcher(Written):
    pass
