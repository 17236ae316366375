"""WRONG: a request cancelled in flight ends "error" when its result is an exception.

Cancelled in flight, a request ends "cancelled" at completion whatever the
model gave it (rule 14): its caller asked not to hear the answer, a failure
included.  Checking for an exception before checking for the cancel hands a
cancelled caller an error it no longer waits for.
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
            values = [ValueError("wrong count")] * len(endings)
        else:
            values = list(outcome)
        return [  # the mistake: the exception checked before the cancel
            Ending(e.id, "error", value)
            if e.id in dropped and isinstance(value, BaseException)
            else e
            for e, value in zip(endings, values, strict=True)
        ]
