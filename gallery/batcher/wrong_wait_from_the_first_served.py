"""WRONG: the wait measured from the request served first, not the oldest.

The bucket's requests are in service order (priority, then arrival), and the
head of that order is not always the one that arrived first: a newer request
of a higher priority goes ahead of an older one.  Timing max_wait from the
head lets the older request wait past max_wait, for as long as newer, more
urgent requests keep arriving.  The promise is to the oldest request.
"""

from __future__ import annotations

from gallery.batcher.right_rescan import Batcher as Written
from gallery.batcher.right_rescan import (  # noqa: F401 (its own types, read by the suite)
    Closed,
    Config,
    Ending,
    Entry,
    QueueFull,
    Request,
)

FAILS = "batch_triggers"


class Batcher(Written):
    def _ready(self, group: list[Entry], take: list[Entry], now: int) -> bool:
        smallest = Entry(Request("one more", 1), now, -1)
        full = len(take) < len(group) or not self._fits([*take, smallest])
        waited = now - group[0].arrival >= self.config.max_wait  # the mistake: the head only
        return full or waited or self.shut
