"""WRONG: a second request with an id already queued is accepted.

Two callers now wait on one id: one result reaches both, or one of them
never hears back.  An id is unique among requests queued or in flight.
"""

from __future__ import annotations

from gallery.batcher.right_rescan import Batcher as Written
from gallery.batcher.right_rescan import (  # noqa: F401 (its own types, read by the suite)
    Closed,
    Config,
    QueueFull,
    Request,
)

FAILS = "batch_validation"


class Batcher(Written):
    def _validate(self, request: Request) -> None:
        if request.id in {e.request.id for e in self.waiting} | self._flying_ids():
            return  # the mistake: duplicates let through
        super()._validate(request)
