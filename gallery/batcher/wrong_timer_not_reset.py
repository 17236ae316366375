"""WRONG: one timer, started by the first request and reset only when it fires.

After a batch goes because it is full, the timer keeps the old deadline, so
the next batch goes early, when a request that arrived since has hardly
waited.  The deadline belongs to the requests still queued: the oldest of
them.
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

FAILS = "batch_triggers"


class Batcher(Written):
    deadline: int | None = None

    def submit(self, request: Request, *, now: int) -> None:
        super().submit(request, now=now)
        if self.deadline is None:
            self.deadline = now + self.config.max_wait

    def _ready(self, group: list[Entry], take: list[Entry], now: int) -> bool:
        full = len(take) < len(group) or not self._fits([*take, Entry(Request(0), now, -1)])
        fired = self.deadline is not None and now >= self.deadline
        if fired and not full:
            self.deadline = None  # the mistake: reset only when the timer fires
        return full or fired or self.shut
