"""WRONG: a failed batch shuts the batcher down.

One bad input, or one transient GPU error, and every later request is
refused: an outage made from one failure.  A failure fails its own batch;
the batcher goes on.
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
        if isinstance(outcome, BaseException):
            self.shut = True  # the mistake: one failure stops everything
        return super().complete(batch_id, outcome, now=now)
