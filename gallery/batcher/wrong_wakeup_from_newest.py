"""WRONG: next_wakeup at the newest request's deadline, not the oldest's.

The batch goes when its oldest request has waited max_wait, so that is when
the caller must poll.  Waking at the newest request's deadline, the oldest
waits past its own by every tick between their arrivals: the batcher keeps
its promise only if it is awake to keep it.
"""

from __future__ import annotations

from gallery.batcher.right_rescan import Batcher as Written
from gallery.batcher.right_rescan import (  # noqa: F401 (its own types, read by the suite)
    Closed,
    Config,
    QueueFull,
    Request,
)

FAILS = "batch_wakeup"


class Batcher(Written):
    def next_wakeup(self) -> int | None:
        candidates = [
            e.arrival + e.request.timeout + 1 for e in self.waiting if e.request.timeout is not None
        ]
        if self.waiting and len(self.flying) < self.config.max_in_flight:
            newest = max(e.arrival for e in self.waiting)  # the mistake: min is the oldest
            candidates.append(newest + (0 if self.shut else self.config.max_wait))
        return min(candidates) if candidates else None
