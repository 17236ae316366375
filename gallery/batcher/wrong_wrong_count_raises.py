"""WRONG: a wrong number of results raises, instead of failing the batch's requests.

`complete(batch, results)` with one result too few or too many is the model's
bug, and its callers are waiting: each must end, with an error, and the
batcher must go on (rule 13).  Raising ValueError from `complete` leaves the
batch's requests neither in flight nor ended: their callers wait for ever.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from gallery.batcher.right_rescan import Batcher as Written
from gallery.batcher.right_rescan import (  # noqa: F401 (its own types, read by the suite)
    Closed,
    Config,
    Ending,
    Entry,
    QueueFull,
    Request,
)

FAILS = "batch_complete"


class Batcher(Written):
    def complete(
        self, batch_id: int, outcome: Sequence[Any] | BaseException, *, now: int
    ) -> list[Ending]:
        flying = self.flying.get(batch_id)
        results = None if isinstance(outcome, BaseException) else len(outcome)
        if flying is not None and results not in (None, len(flying)):
            self.flying.pop(batch_id)  # the mistake: raised, as if it were the caller's error
            raise ValueError(f"{results} results for {len(flying)} requests")
        return super().complete(batch_id, outcome, now=now)
