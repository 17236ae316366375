"""WRONG: cancelling a queued request marks it, but leaves it in the queue.

The batch is built from the queue, so the cancelled request is sent: GPU
time for a caller who has gone, and its ending comes twice.  Remove it.
"""

from __future__ import annotations

from collections.abc import Hashable

from gallery.batcher.right_rescan import Batcher as Written
from gallery.batcher.right_rescan import (  # noqa: F401 (its own types, read by the suite)
    Closed,
    Config,
    Ending,
    QueueFull,
    Request,
)

FAILS = "batch_cancel"


class Batcher(Written):
    def cancel(self, request_id: Hashable, *, now: int) -> Ending | None:
        self._tick(now)
        if any(e.request.id == request_id for e in self.waiting):
            self.dropped.add(request_id)  # the mistake: still queued
            return Ending(request_id, "cancelled")
        return super().cancel(request_id, now=now)
