"""WRONG: a request that would break the token budget is skipped, and later ones join.

Rule 8: a batch takes its bucket's requests in service order and stops at
the first that does not fit, so no later request overtakes it.  Skipping it
instead, a budget of 8 with requests of 2, 6 and 2 tokens queued in that
order sends 2 and 2 (4 padded tokens) and leaves the 6 behind; while short
requests keep coming, a long one is passed over batch after batch and
starves, the very thing service order is for.
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

FAILS = "batch_tokens"


class Batcher(Written):
    def _take(self, group: list[Entry]) -> list[Entry]:
        take: list[Entry] = []
        for entry in group:
            if not self._fits([*take, entry]):
                continue  # the mistake: skipped, where the batch must stop
            take.append(entry)
        return take
