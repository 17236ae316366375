"""WRONG: strict priority, no ageing: a low priority can wait for ever.

While higher priorities keep arriving, a priority-0 request is never first
in line.  Ageing (a request queued `ageing` ticks goes first) bounds its wait.
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

FAILS = "batch_priority"


class Batcher(Written):
    def _rank(self, entry: Entry, now: int) -> tuple[int, int, int]:
        return (0, -entry.request.priority, entry.seq)  # the mistake: age ignored
