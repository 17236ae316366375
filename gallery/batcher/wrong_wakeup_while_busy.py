"""WRONG: next_wakeup counts batch deadlines even when no batch slot is free.

The deadline passes, the caller wakes and polls, and nothing can be sent;
the deadline is still in the past, so it wakes again at once: a busy loop
until a completion frees a slot.  While every slot is busy only timeouts
can make a poll act.
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
        candidates = []
        for entry in self.waiting:
            if entry.request.timeout is not None:
                candidates.append(entry.arrival + entry.request.timeout + 1)
            wait = 0 if self.shut else self.config.max_wait
            candidates.append(entry.arrival + wait)  # the mistake: even with no free slot
        return min(candidates) if candidates else None
