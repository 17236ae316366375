"""WRONG: close() empties the queue.

The requests already accepted are never sent and never ended: their callers
wait for ever.  Shutting down sends what is queued, without waiting, and
lets what is in flight complete.
"""

from __future__ import annotations

from gallery.batcher.right_rescan import Batcher as Written
from gallery.batcher.right_rescan import (  # noqa: F401 (its own types, read by the suite)
    Closed,
    Config,
    QueueFull,
    Request,
)

FAILS = "batch_shutdown"


class Batcher(Written):
    def close(self) -> None:
        super().close()
        self.waiting.clear()  # the mistake: accepted requests dropped
