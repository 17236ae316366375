"""WRONG: first come, first served: the priority is never read.

An interactive request waits behind a backlog of batch jobs.  Serve higher
priorities first, first come within a level.
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

FAILS = "batch_priority"


class Batcher(Written):
    def _rank(self, entry: Entry, now: int) -> tuple[int, int, int]:
        ageing = self.config.ageing
        aged = ageing is not None and now - entry.arrival >= ageing
        return (0 if aged else 1, 0, entry.seq)  # the mistake: no priority
