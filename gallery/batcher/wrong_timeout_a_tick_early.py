"""WRONG: a request times out at arrival + timeout, one tick early.

Rule 10: a request times out once it has been queued *longer* than its
timeout, `now - arrival > timeout`.  With `>=`, a request with timeout 0 is
ended at the poll of the very tick it arrived, before any batch could take
it, and one with timeout 2 queued at tick 0 is ended at tick 2, when it
was still owed that tick.  Its wake-up (rule 15) moves with it, to
arrival + timeout.
"""

from __future__ import annotations

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
    def _expire(self, now: int) -> list[Ending]:
        expired = [
            e
            for e in self.waiting
            if e.request.timeout is not None and now >= e.arrival + e.request.timeout
        ]  # the mistake: >= for >
        self.waiting = [e for e in self.waiting if e not in expired]
        return [Ending(e.request.id, "timed out") for e in expired]

    def next_wakeup(self) -> int | None:
        candidates = []
        for entry in self.waiting:
            if entry.request.timeout is not None:
                candidates.append(entry.arrival + entry.request.timeout)  # its early deadline
            if len(self.flying) < self.config.max_in_flight:
                candidates.append(entry.arrival + (0 if self.shut else self.config.max_wait))
        return min(candidates) if candidates else None
