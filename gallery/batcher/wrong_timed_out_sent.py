"""WRONG: poll sends first and expires afterwards.

A request whose timeout has passed is sent in the batch that goes at the
same poll: its caller has already given up.  End the timed-out requests
first, then form batches from what is left.
"""

from __future__ import annotations

from gallery.batcher.right_rescan import Batcher as Written
from gallery.batcher.right_rescan import (  # noqa: F401 (its own types, read by the suite)
    Closed,
    Config,
    Decision,
    QueueFull,
    Request,
)

FAILS = "batch_cancel"


class Batcher(Written):
    def poll(self, *, now: int) -> Decision:
        self._tick(now)
        batches = []
        while len(self.flying) < self.config.max_in_flight:
            chosen = self._choose(now)
            if chosen is None:
                break
            batches.append(self._send(chosen, now))
        return Decision(batches, self._expire(now))  # the mistake: expired after sending
