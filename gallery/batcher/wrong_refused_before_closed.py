"""WRONG: submit checks the request before it checks that the batcher is closed.

A closed batcher will never take any request, so `Closed` is the answer
whatever else is wrong with it: a caller told `ValueError` fixes the request
and tries again, into a batcher that is shutting down.
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
        self._validate(request)  # the mistake: before the Closed check
        if self.shut:
            raise Closed("closed: no new requests")
        self._admit(Entry(request, now, self.seq))
        self.seq += 1
