"""WRONG: a request counts as aged only once it has waited *more* than `ageing`.

Rule 6: a request queued at least `ageing` ticks comes first.  With `>`
it waits a tick longer than the knob says: with ageing 3, a priority-0
request queued at tick 0 is still behind a newer priority-1 request at
tick 3, so the bound on its wait is not the one configured.
`now - arrival >= ageing`.
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
        aged = ageing is not None and now - entry.arrival > ageing  # the mistake: > for >=
        return (0 if aged else 1, -entry.request.priority, entry.seq)
