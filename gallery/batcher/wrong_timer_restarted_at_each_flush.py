"""WRONG: after a batch goes, the wait of the requests left behind starts again.

A size flush sends the oldest requests; the ones left had been waiting too,
but their wait is counted afresh from the flush, so each flush can push
the rest back by `max_wait` again, and a steady trickle keeps some request
waiting long past its deadline.  Each request's wait runs from its own
arrival.
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
    def _send(self, entries: list[Entry], now: int) -> Batch:
        batch = super()._send(entries, now)
        # the mistake: what is left waits from now, not from its arrival
        self.waiting = [Entry(e.request, max(e.arrival, now), e.seq) for e in self.waiting]
        return batch
