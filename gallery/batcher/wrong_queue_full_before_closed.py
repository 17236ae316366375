"""WRONG: a submit to a closed batcher with a full queue answered QueueFull, not Closed.

QueueFull tells the caller to try again later; a closed batcher will never
take the request.  The refusal that cannot be mended by waiting comes first:
Closed, whatever the queue holds.
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

FAILS = "batch_shutdown"


class Batcher(Written):
    def submit(self, request: Request, *, now: int) -> None:
        self._tick(now)
        self._validate(request)
        if len(self.waiting) >= self.config.max_queue:  # the mistake: before the closed check
            raise QueueFull(f"queue full ({self.config.max_queue})")
        if self.shut:
            raise Closed("closed: no new requests")
        self._admit(Entry(request, now, self.seq))
        self.seq += 1
