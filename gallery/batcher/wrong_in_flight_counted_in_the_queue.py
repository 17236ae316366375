"""WRONG: requests in flight count toward max_queue.

max_queue bounds the queue, what waits for a batch (rule 3: requests in
flight do not count).  Counting the batches out too, a batcher with
max_queue 1 and one request on the GPU refuses the next with QueueFull
though nothing is queued: the caller is told to back off while the queue
is empty, and the GPU's next batch cannot form until the last one is done.
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
        if len(self.waiting) + len(self._flying_ids()) >= self.config.max_queue:  # the mistake
            raise QueueFull(f"queue full ({self.config.max_queue})")
        self.waiting.append(entry)
