"""WRONG: a batch goes when its oldest has waited *more* than max_wait.

Off by one tick, and with max_wait 0 every request waits a tick for nothing.
The knob is the longest a request waits: at now - arrival == max_wait it goes.
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

FAILS = "batch_triggers"


class Batcher(Written):
    def _ready(self, group: list[Entry], take: list[Entry], now: int) -> bool:
        full = len(take) < len(group) or not self._fits([*take, Entry(Request(0), now, -1)])
        waited = any(now - e.arrival > self.config.max_wait for e in group)  # the mistake: >
        return full or waited or self.shut
