"""WRONG: close() sets a flag that submit never checks.

Requests keep arriving into a batcher that is draining: shutdown never
finishes, or they are lost when the process exits.  After close(), submit
raises Closed.
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
        self._validate(request)  # the mistake: self.shut never checked
        self._admit(Entry(request, now, self.seq))
        self.seq += 1
