"""WRONG: a batch taken for full only when a request had to be left out.

Full means no request could join: max_batch_size reached, or no room in the
budget for one more.  Testing only whether the queue holds more than the
batch takes, a batch of exactly max_batch_size requests, all that is
queued, waits for the timer: its requests wait max_wait for company that
could not join anyway.
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
    def _ready(self, group: list[Entry], take: list[Entry], now: int) -> bool:
        full = len(take) < len(group)  # the mistake: a batch with no room left is full too
        waited = any(now - e.arrival >= self.config.max_wait for e in group)
        return full or waited or self.shut
