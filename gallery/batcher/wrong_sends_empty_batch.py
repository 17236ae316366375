"""WRONG: a timer that fires sends whatever is buffered, even nothing.

The deadline was set by a request since cancelled; when it passes, an empty
batch goes to the model: a launch for no one, and a model that may fail on
an empty input.  A batch is never empty.
"""

from __future__ import annotations

from gallery.batcher.right_rescan import (  # noqa: F401 (its own types, read by the suite)
    Batch,
    Closed,
    Config,
    Decision,
    QueueFull,
    Request,
)
from gallery.batcher.right_rescan import Batcher as Written

FAILS = "batch_triggers"


class Batcher(Written):
    deadline: int | None = None

    def submit(self, request: Request, *, now: int) -> None:
        super().submit(request, now=now)
        if self.deadline is None:
            self.deadline = now + self.config.max_wait

    def poll(self, *, now: int) -> Decision:
        decision = super().poll(now=now)
        if decision.batches:
            self.deadline = None
        elif self.deadline is not None and now >= self.deadline:
            empty = Batch(self.next_id, (), 0)  # the mistake: the timer sends the empty buffer
            self.flying[empty.id], self.next_id, self.deadline = [], self.next_id + 1, None
            return Decision([empty], decision.ended)
        return decision
