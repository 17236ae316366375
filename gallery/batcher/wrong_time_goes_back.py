"""WRONG: any now is taken, even one earlier than a now already seen.

A clock that went back (wall time, a bug) makes arrivals in the future and
waits negative; a deadline can pass before its request arrived.  Time never
goes back: such a call is a ValueError.
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
    def _tick(self, now: int) -> None:
        self.clock = now  # the mistake: never compared
