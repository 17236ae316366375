"""A request batcher as a pure state machine: requests in, batches out, time passed in.

No I/O, no clock, no event loop ("sans-I/O", as h11 is for HTTP): the caller
says what happened (`submit`, `cancel`, `complete`) and when (``now``, integer
ticks that never go back), asks what to send (`poll`), and when to ask again
(`next_wakeup`).

A bucket's batch is its requests in service order (`variants.batcher.queue`),
as many as fit: at most `max_batch_size`, and at most `token_budget` padded
tokens (its size times its longest request, as a batch padded to its longest
member costs); it stops at the first that does not fit, so no later one
overtakes it.  A batch is sent when it is full, when a request of its bucket
has waited `max_wait` ticks, or after `close()`; and only while fewer than
`max_in_flight` batches are out.  The invariants, checked against a model:

* the queue never holds more than `max_queue` requests: the next is refused
  (`QueueFull`) at once, never queued without limit, never dropped;
* after a poll, no request has waited `max_wait` while a batch slot is free;
* every accepted request ends exactly once: a result, an error, cancelled,
  or timed out; a cancelled one is never sent, or its result is discarded.

Each call costs O(log n + the batches it sends), never a scan of the queue.
"""

from __future__ import annotations

import bisect
import heapq
import itertools
from collections.abc import Hashable, Iterator, Sequence
from typing import Any

from variants.batcher.queue import Queued, ServiceQueue
from variants.batcher.records import Batch, Closed, Config, Decision, Ending, QueueFull, Request


class Batcher:
    """The decisions of a batcher; the caller does the I/O and keeps the time."""

    def __init__(self, config: Config) -> None:
        self.config = config
        self._queue = ServiceQueue(config.ageing)
        self._deadlines: list[tuple[int, int, Hashable]] = []  # heap of (tick, order, id)
        self._in_flight: dict[int, Batch] = {}
        self._batch_of: dict[Hashable, int] = {}  # request id -> its batch in flight
        self._discard: set[Hashable] = set()  # cancelled while in flight
        self._orders, self._batch_ids = itertools.count(), itertools.count(1)
        self._closed = False
        self._now: int | None = None  # the latest now passed

    def submit(self, request: Request, *, now: int) -> None:
        """Queue `request`, arriving `now`; QueueFull if `max_queue` are queued; Closed if closed.

        ValueError for an id already queued or in flight, tokens < 1, a negative
        timeout, or more tokens than the token budget (it would fit no batch).
        """
        self._advance(now)
        budget = self.config.token_budget
        if self._closed:
            raise Closed("the batcher is closed")
        if request.tokens < 1 or (request.timeout is not None and request.timeout < 0):
            raise ValueError(f"need tokens >= 1 and timeout >= 0: {request}")
        if budget is not None and request.tokens > budget:
            raise ValueError(f"{request.tokens} tokens exceed the batch budget of {budget}")
        if request.id in self._queue.by_id or request.id in self._batch_of:
            raise ValueError(f"request {request.id!r} is already queued or in flight")
        if len(self._queue) >= self.config.max_queue:
            raise QueueFull(f"{len(self._queue)} requests queued, the most allowed")
        bucket = bisect.bisect_left(self.config.buckets, request.tokens)  # edges below it
        order = next(self._orders)
        self._queue.add(Queued(request, now, order, bucket))
        if request.timeout is not None:
            heapq.heappush(self._deadlines, (now + request.timeout, order, request.id))

    def cancel(self, request_id: Hashable, *, now: int) -> Ending | None:
        """Queued: it ends now, never sent (its ending returned).  In flight: None, and
        its result is discarded at completion.  ValueError for neither."""
        self._advance(now)
        if request_id in self._queue.by_id:
            self._queue.remove(request_id)
            return Ending(request_id, "cancelled")
        if request_id not in self._batch_of:
            raise ValueError(f"request {request_id!r} is neither queued nor in flight")
        self._discard.add(request_id)
        return None

    def poll(self, *, now: int) -> Decision:
        """The requests that timed out (queued longer than their timeout); the batches to send."""
        self._advance(now)
        ended = []
        while (deadline := self._next_deadline()) is not None and deadline[0] < now:
            heapq.heappop(self._deadlines)
            ended.append(Ending(self._queue.remove(deadline[2]).request.id, "timed out"))
        batches = []
        while len(self._in_flight) < self.config.max_in_flight and (batch := self._ready(now)):
            for request_id in batch.requests:
                self._queue.remove(request_id)
                self._batch_of[request_id] = batch.id
            self._in_flight[batch.id] = batch
            batches.append(batch)
        return Decision(batches, ended)

    def complete(
        self, batch_id: int, outcome: Sequence[Any] | BaseException, *, now: int
    ) -> list[Ending]:
        """The endings of a sent batch's requests, in its order.

        `outcome` is one result per request (an exception among them fails that
        request alone) or an exception that fails them all.  The wrong number of
        results fails them all: a silent mismatch would hand results to the
        wrong callers.  ValueError for a batch not in flight.
        """
        self._advance(now)
        batch = self._in_flight.pop(batch_id, None)
        if batch is None:
            raise ValueError(f"batch {batch_id!r} is not in flight")
        if not isinstance(outcome, BaseException) and len(outcome) != len(batch.requests):
            outcome = ValueError(f"{len(outcome)} results for a batch of {len(batch.requests)}")
        if isinstance(outcome, BaseException):
            outcome = [outcome] * len(batch.requests)
        endings = []
        for request_id, value in zip(batch.requests, outcome, strict=True):
            del self._batch_of[request_id]
            kind = "error" if isinstance(value, BaseException) else "result"
            if request_id in self._discard:
                self._discard.remove(request_id)
                kind, value = "cancelled", None
            endings.append(Ending(request_id, kind, value))
        return endings

    def next_wakeup(self) -> int | None:
        """After a poll: the earliest later tick at which a poll, with nothing else
        happening, would end or send something; None if none ever would."""
        times = []
        if (deadline := self._next_deadline()) is not None:
            times.append(deadline[0] + 1)  # timed out once queued longer than its timeout
        oldest = self._queue.oldest()
        if oldest is not None and len(self._in_flight) < self.config.max_in_flight:
            times.append(oldest.arrival + self.config.max_wait)  # closed: the poll sent them
        return min(times, default=None)

    def close(self) -> None:
        """Take no more requests; send what is queued without waiting for batches to fill."""
        self._closed = True

    @property
    def closed(self) -> bool:
        return self._closed

    @property
    def queued(self) -> int:
        return len(self._queue)

    @property
    def in_flight(self) -> int:
        return len(self._in_flight)

    def _advance(self, now: int) -> None:
        if self._now is not None and now < self._now:
            raise ValueError(f"time went back: now={now} after now={self._now}")
        self._now = now

    def _next_deadline(self) -> tuple[int, int, Hashable] | None:
        """The earliest timeout of a request still queued (dropping those that are not)."""
        while self._deadlines:
            _, order, request_id = self._deadlines[0]
            queued = self._queue.by_id.get(request_id)
            if queued is not None and queued.order == order:
                return self._deadlines[0]
            heapq.heappop(self._deadlines)  # sent, cancelled, or the id reused since
        return None

    def _ready(self, now: int) -> Batch | None:
        """The first bucket's batch, in service order, that is full, has waited, or is closing."""
        for bucket in self._queue.buckets(now):
            batch, full = self._fill(self._queue.in_service_order(bucket, now))
            if full or self._closed or self._waited(bucket, now):
                longest = max(q.request.tokens for q in batch)
                ids = tuple(q.request.id for q in batch)
                return Batch(next(self._batch_ids), ids, len(batch) * longest)
        return None

    def _waited(self, bucket: int, now: int) -> bool:
        oldest = self._queue.oldest(bucket)
        return oldest is not None and now - oldest.arrival >= self.config.max_wait

    def _fill(self, members: Iterator[Queued]) -> tuple[list[Queued], bool]:
        """The longest prefix of `members` that fits one batch, and whether it is full:
        a member was left out, or no request at all could join it."""
        batch: list[Queued] = []
        longest = 0
        for queued in members:
            if not self._fits(len(batch) + 1, max(longest, queued.request.tokens)):
                return batch, True
            batch.append(queued)
            longest = max(longest, queued.request.tokens)
        return batch, not self._fits(len(batch) + 1, longest)

    def _fits(self, size: int, longest: int) -> bool:
        budget = self.config.token_budget
        return size <= self.config.max_batch_size and (budget is None or size * longest <= budget)
