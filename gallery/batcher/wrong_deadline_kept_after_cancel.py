"""WRONG: a bucket's deadline set by its first request, and kept when that request leaves.

Each bucket remembers when its oldest request arrived; a request cancelled
or timed out leaves the queue, but not that memory, so the next request of
the bucket goes as if it had waited since then: early, in a batch of one.
The deadline belongs to the oldest request still queued.
"""

from __future__ import annotations

from gallery.batcher.right_rescan import (  # noqa: F401 (its own types, read by the suite)
    Batch,
    Closed,
    Config,
    Entry,
    QueueFull,
    Request,
)
from gallery.batcher.right_rescan import Batcher as Written

FAILS = "batch_triggers"


class Batcher(Written):
    def _admit(self, entry: Entry) -> None:
        super()._admit(entry)
        first = getattr(self, "first", {})
        first.setdefault(self._bucket(entry.request.tokens), entry.arrival)
        self.first = first

    def _send(self, entries: list[Entry], now: int) -> Batch:
        self.first.pop(self._bucket(entries[0].request.tokens), None)  # a batch resets it
        return super()._send(entries, now)

    def _ready(self, group: list[Entry], take: list[Entry], now: int) -> bool:
        smallest = Entry(Request("one more", 1), now, -1)
        full = len(take) < len(group) or not self._fits([*take, smallest])
        since = self.first.get(self._bucket(group[0].request.tokens), now)
        waited = now - since >= self.config.max_wait  # the mistake: kept after a cancel
        return full or waited or self.shut

    def next_wakeup(self) -> int | None:
        candidates = [
            e.arrival + e.request.timeout + 1 for e in self.waiting if e.request.timeout is not None
        ]
        if len(self.flying) < self.config.max_in_flight:
            candidates += [since + self.config.max_wait for since in self.first.values()]
        return min(candidates) if candidates else None
