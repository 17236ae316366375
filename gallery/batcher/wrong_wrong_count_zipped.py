"""WRONG: a wrong number of results zipped with the requests anyway.

Too few, and the last callers get nothing at all; too many, and the extra
is silently ignored though something upstream went wrong.  Either way the
mismatch is an error for every caller of the batch.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from gallery.batcher.right_rescan import Batcher as Written
from gallery.batcher.right_rescan import (  # noqa: F401 (its own types, read by the suite)
    Closed,
    Config,
    Ending,
    QueueFull,
    Request,
)

FAILS = "batch_complete"


class Batcher(Written):
    def complete(
        self, batch_id: int, outcome: Sequence[Any] | BaseException, *, now: int
    ) -> list[Ending]:
        self._tick(now)
        if batch_id not in self.flying:
            raise ValueError(f"batch {batch_id} is not in flight")
        entries = self.flying.pop(batch_id)
        values = [outcome] * len(entries) if isinstance(outcome, BaseException) else outcome
        endings = []
        for entry, value in zip(entries, values, strict=False):  # the mistake: not strict
            if entry.request.id in self.dropped:
                self.dropped.discard(entry.request.id)
                endings.append(Ending(entry.request.id, "cancelled"))
            else:
                kind = "error" if isinstance(value, BaseException) else "result"
                endings.append(Ending(entry.request.id, kind, value))
        return endings
