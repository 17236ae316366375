"""WRONG: a call at the same tick as the last one refused, as if time had gone back.

Time never goes back, but it may stand still: many requests arrive within
one tick, and a poll at the tick of the last submit is the ordinary case.
Refusing `now == last` (`<=` where `<` is meant) refuses the second request
of every burst.
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
    def _tick(self, now: int) -> None:
        if self.clock is not None and now <= self.clock:  # the mistake: <= where < is meant
            raise ValueError(f"now={now} is not after {self.clock}")
        self.clock = now
