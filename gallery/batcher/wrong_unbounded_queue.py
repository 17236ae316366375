"""WRONG: the queue takes every request; max_queue is never checked.

Under overload the queue, and every request's wait, grows without bound
until memory runs out; the callers learn nothing until they time out.
Refusing at once (QueueFull) is backpressure: the caller can retry
elsewhere, later, or shed load.
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
        self.waiting.append(entry)  # the mistake: no bound
