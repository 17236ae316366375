"""WRONG: a full queue makes room by dropping its oldest request.

A ring buffer is bounded, but the dropped request is never sent and never
ended: its caller waits for ever.  Nothing accepted may be dropped; the
request that does not fit is the one refused, at once.
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

FAILS = "batch_queue"


class Batcher(Written):
    def _admit(self, entry: Entry) -> None:
        if len(self.waiting) >= self.config.max_queue:
            self.waiting.pop(0)  # the mistake: silently dropped
        self.waiting.append(entry)
