"""WRONG: a timeout kept in a heap by request id, and an old entry taken for a new request.

Deadlines go into a heap of (tick, id), popped lazily at each poll; a
request that leaves the queue (sent, cancelled) leaves its entry behind.
Matched by id alone, the entry of a cancelled request ends a later request
that reuses its id, at the first request's deadline.  An entry must name
the very request it was made for (its submission number, not just its id).
"""

from __future__ import annotations

import heapq
from collections.abc import Hashable

from gallery.batcher.right_rescan import (  # noqa: F401 (its own types, read by the suite)
    Batch,
    Closed,
    Config,
    Ending,
    Entry,
    QueueFull,
    Request,
)
from gallery.batcher.right_rescan import Batcher as Written

FAILS = "batch_cancel"


class Batcher(Written):
    def _admit(self, entry: Entry) -> None:
        super()._admit(entry)
        if entry.request.timeout is not None:
            heap: list[tuple[int, Hashable]] = getattr(self, "deadlines", [])
            heapq.heappush(heap, (entry.arrival + entry.request.timeout, entry.request.id))
            self.deadlines = heap

    def _expire(self, now: int) -> list[Ending]:
        heap: list[tuple[int, Hashable]] = getattr(self, "deadlines", [])
        ended = []
        while heap and heap[0][0] < now:
            _, request_id = heapq.heappop(heap)
            # the mistake: any queued request with this id, not the one the entry was made for
            queued = [e for e in self.waiting if e.request.id == request_id]
            self.waiting = [e for e in self.waiting if e not in queued]
            ended += [Ending(e.request.id, "timed out") for e in queued]
        return ended
