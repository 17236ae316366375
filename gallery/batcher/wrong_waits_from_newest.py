"""WRONG: the wait measured from the newest request, not the oldest.

Every arrival pushes the deadline back, so under steady traffic a batch that
never fills never goes: the first request waits without bound.  The promise
is to the oldest request: its wait starts when it arrives.
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
        full = len(take) < len(group) or not self._fits([*take, Entry(Request(0), now, -1)])
        newest = max(e.arrival for e in group)  # the mistake: min is the oldest
        return full or now - newest >= self.config.max_wait or self.shut
