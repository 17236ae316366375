"""WRONG: `complete` never looks at its `now`, so a completion from the past is taken.

Every call that happens at a time checks that time did not go back; the
completion, last in the request's life, was left out: a stale or mistimed
caller completes a batch "before" it was sent, and nothing says so.
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

FAILS = "batch_validation"


class Batcher(Written):
    def complete(
        self, batch_id: int, outcome: Sequence[Any] | BaseException, *, now: int
    ) -> list[Ending]:
        clock = self.clock
        self.clock = None  # the mistake: no check of `now`
        try:
            return super().complete(batch_id, outcome, now=now)
        finally:
            self.clock = clock if clock is not None and clock > now else now
