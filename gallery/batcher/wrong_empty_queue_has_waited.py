"""WRONG: an empty queue's oldest arrival taken as tick 0, so it has always waited.

`min(arrivals, default=0)` makes the wait of an empty queue `now - 0`: past
max_wait at once, so every poll with a free slot and nothing queued sends a
batch of nobody, a launch for no one that also takes the slot a real batch
needs.  Nothing queued is nothing to send, however long it has been.
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
    def poll(self, *, now: int) -> Decision:
        decision = super().poll(now=now)
        oldest = min((e.arrival for e in self.waiting), default=0)  # the mistake: default 0
        free = len(self.flying) < self.config.max_in_flight
        if free and not self.waiting and now - oldest >= self.config.max_wait:
            empty = Batch(self.next_id, (), 0)
            self.flying[empty.id], self.next_id = [], self.next_id + 1
            return Decision([*decision.batches, empty], decision.ended)
        return decision
