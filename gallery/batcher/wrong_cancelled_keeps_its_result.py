"""WRONG: a request cancelled in flight ends "cancelled" and still carries its result.

Cancelling means the caller no longer wants the answer; an ending that hands
it over anyway has not discarded it (and a caller that reads `value` without
looking at `kind` uses it).  A cancelled ending's value is None.
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

FAILS = "batch_cancel"


class Batcher(Written):
    def complete(
        self, batch_id: int, outcome: Sequence[Any] | BaseException, *, now: int
    ) -> list[Ending]:
        dropped = set(self.dropped)
        endings = super().complete(batch_id, outcome, now=now)
        if isinstance(outcome, BaseException):
            values: list[Any] = [outcome] * len(endings)
        elif len(outcome) != len(endings):
            return endings
        else:
            values = list(outcome)
        # the mistake: the result (or the batch's error) goes out with the cancelled ending
        return [
            Ending(e.id, e.kind, value) if e.id in dropped else e
            for e, value in zip(endings, values, strict=True)
        ]
