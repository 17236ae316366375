"""WRONG: every ready batch is sent, however many are already out.

The GPU gets more concurrent batches than it has room for (memory, streams,
instances): it thrashes or fails.  At most max_in_flight batches are out;
the rest wait in the queue, where the batcher can still shape them.
"""

from __future__ import annotations

from gallery.batcher.right_rescan import Batcher as Written
from gallery.batcher.right_rescan import (  # noqa: F401 (its own types, read by the suite)
    Closed,
    Config,
    Decision,
    QueueFull,
    Request,
)

FAILS = "batch_in_flight"


class Batcher(Written):
    def poll(self, *, now: int) -> Decision:
        self._tick(now)
        expired = self._expire(now)
        batches = []
        while (chosen := self._choose(now)) is not None:  # the mistake: no slot count
            batches.append(self._send(chosen, now))
        return Decision(batches, expired)
