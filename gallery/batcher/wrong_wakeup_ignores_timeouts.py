"""WRONG: next_wakeup looks at batch deadlines only.

A request whose timeout passes before its batch's deadline is ended late:
it sits in the queue, its caller still waiting, until something else wakes
the batcher.  The next wake-up is the earliest of both.
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
        if len(self.flying) >= self.config.max_in_flight:
            return None
        wait = 0 if self.shut else self.config.max_wait
        return min((e.arrival + wait for e in self.waiting), default=None)  # the mistake
