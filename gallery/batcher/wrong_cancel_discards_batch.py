"""WRONG: cancelling one request in flight discards its whole batch.

The other callers of the batch lose results computed for them.  Only the
cancelled request's result is discarded.
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
        for entries in self.flying.values():
            if any(e.request.id == request_id for e in entries):
                self._tick(now)
                self.dropped.update(e.request.id for e in entries)  # the mistake: all of them
                return None
        return super().cancel(request_id, now=now)
