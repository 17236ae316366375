"""WRONG: a timed-out request's id stays taken.

The batcher keeps a set of the ids in use, to refuse duplicates; it frees an
id when its request is cancelled or completed, but forgets the requests that
time out.  A caller who retries after a timeout, with the same id, is then
refused for ever.  An id is free again once its request has ended, however
it ended.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
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
    def __init__(self, config: Config) -> None:
        super().__init__(config)
        self.taken: set[Hashable] = set()  # the ids queued or in flight

    def submit(self, request: Request, *, now: int) -> None:
        super().submit(request, now=now)
        self.taken.add(request.id)

    def cancel(self, request_id: Hashable, *, now: int) -> Ending | None:
        ending = super().cancel(request_id, now=now)
        if ending is not None:
            self.taken.discard(request_id)
        return ending

    def complete(
        self, batch_id: int, outcome: Sequence[Any] | BaseException, *, now: int
    ) -> list[Ending]:
        endings = super().complete(batch_id, outcome, now=now)
        self.taken.difference_update(ending.id for ending in endings)
        return endings

    def _expire(self, now: int) -> list[Ending]:
        return super()._expire(now)  # the mistake: the timed-out ids are not freed

    def _validate(self, request: Request) -> None:
        super()._validate(request)
        if request.id in self.taken:
            raise ValueError(f"duplicate request id {request.id!r}")
