"""The batcher on a real event loop: ``await batcher.submit(item)`` returns that item's result.

A thin shell around the core (`variants.batcher.core`): it keeps one future
per request, one driver task that asks the core, and `max_in_flight` runner
tasks that each await a batch, run it, and wait for the next (handing a
batch over is one future's result, not a new task), reads the loop's clock in integer ticks
(milliseconds by default), runs the model on each batch the core sends, and
hands each ending back to its caller.  Every decision is the core's.

* A full queue refuses a request at once: `submit` raises `QueueFull`.
* A caller that is cancelled while its request is queued takes it out of
  the queue; while its batch runs, its result is discarded; the other
  requests of the batch are not disturbed.
* A request that times out in the queue raises `TimeoutError`.
* A failed batch fails each of its callers with the model's exception (or
  each item's own, if the model returns exceptions among its results).
* `close()` stops taking requests, sends what is queued, and waits for what
  is in flight: nothing accepted is lost.
"""

from __future__ import annotations

import asyncio
import itertools
from collections.abc import Awaitable, Callable, Hashable, Sequence
from typing import Any

from variants.batcher.core import Batcher
from variants.batcher.records import Batch, Config, Ending, Request

Model = Callable[[list[Any]], Awaitable[Sequence[Any]]]
Handover = tuple[Batch, list[Any]]  # a batch and its items, read when it is sent


class AsyncBatcher:
    """Batches `submit`ted items for `model`, on the running event loop."""

    def __init__(self, model: Model, config: Config, *, ticks_per_second: int = 1000) -> None:
        self._model, self._core = model, Batcher(config)
        self._ticks = ticks_per_second
        self._futures: dict[Hashable, asyncio.Future[Any]] = {}
        self._items: dict[Hashable, Any] = {}
        self._ids = itertools.count()
        self._woken: asyncio.Future[None] | None = None  # what the driver awaits
        self._idle: list[asyncio.Future[Handover | None]] = []  # runners waiting for a batch
        self._runners: list[asyncio.Task[None]] = []
        self._driver: asyncio.Task[None] | None = None

    async def submit(
        self, item: Any, *, tokens: int = 1, priority: int = 0, timeout: float | None = None
    ) -> Any:
        """The model's result for `item` (QueueFull at once if the queue is full).

        `timeout` is seconds the item may wait in the queue (TimeoutError after).
        """
        loop = asyncio.get_running_loop()
        if self._driver is None:
            self._driver = loop.create_task(self._drive())
            self._runners = [
                loop.create_task(self._run()) for _ in range(self._core.config.max_in_flight)
            ]
        request_id = next(self._ids)
        ticks = None if timeout is None else round(timeout * self._ticks)
        self._core.submit(Request(request_id, tokens, priority, ticks), now=self._now())
        future: asyncio.Future[Any] = loop.create_future()
        self._futures[request_id], self._items[request_id] = future, item
        self._wake()
        try:
            return await future
        except asyncio.CancelledError:
            if request_id in self._futures:  # still queued or in flight: take it back
                self._forget(request_id)
                self._core.cancel(request_id, now=self._now())
                self._wake()
            raise

    async def close(self) -> None:
        """Take no more requests; send what is queued; return when all of it has ended."""
        self._core.close()
        self._wake()
        if self._driver is not None:
            await self._driver

    def _wake(self) -> None:
        if self._woken is not None and not self._woken.done():
            self._woken.set_result(None)

    def _now(self) -> int:
        return int(asyncio.get_running_loop().time() * self._ticks)

    async def _drive(self) -> None:
        try:
            await self._serve()
        except BaseException as error:  # a bug here must not leave callers waiting forever
            for future in self._futures.values():
                if not future.done():
                    future.set_exception(RuntimeError(f"the batcher stopped: {error!r}"))
            raise
        finally:
            for slot in self._idle:  # the runners end with the driver
                if not slot.done():
                    slot.set_result(None)

    async def _serve(self) -> None:
        while True:
            await self._runners_waiting()
            decision = self._core.poll(now=self._now())
            self._deliver(decision.ended)
            for batch in decision.batches:  # at most one per idle runner: the core's max_in_flight
                # The items are read now: a caller cancelled before its runner wakes
                # takes its item back, and the batch must still run as it was sent.
                items = [self._items[request_id] for request_id in batch.requests]
                self._idle.pop().set_result((batch, items))
            if self._core.closed and self._core.queued == 0 and self._core.in_flight == 0:
                return
            loop = asyncio.get_running_loop()
            self._woken = loop.create_future()
            wakeup, timer = self._core.next_wakeup(), None
            if wakeup is not None:  # the first tick the core will have work for: wake then
                timer = loop.call_at(wakeup / self._ticks, self._wake)
            await self._woken
            if timer is not None:
                timer.cancel()

    async def _runners_waiting(self) -> None:
        """Until a runner waits for each free slot (only the first time: they are starting)."""
        while len(self._idle) < self._core.config.max_in_flight - self._core.in_flight:
            if any(runner.done() for runner in self._runners):  # one died: fail, never spin
                raise RuntimeError("a batch runner stopped")
            await asyncio.sleep(0)

    async def _run(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            slot: asyncio.Future[Handover | None] = loop.create_future()
            self._idle.append(slot)
            handover = await slot
            if handover is None:
                return
            batch, items = handover
            try:
                outcome: Sequence[Any] | BaseException = list(await self._model(items))
            except Exception as error:  # the model's failure is its callers', not the batcher's
                outcome = error
            self._deliver(self._core.complete(batch.id, outcome, now=self._now()))
            if self._core.queued or self._core.closed:  # a freed slot matters only then
                self._wake()

    def _deliver(self, endings: list[Ending]) -> None:
        for ending in endings:
            future = self._forget(ending.id)
            if future is None or future.done():
                continue
            if ending.kind == "result":
                future.set_result(ending.value)
            elif ending.kind == "error":
                future.set_exception(ending.value)
            elif ending.kind == "timed out":
                future.set_exception(TimeoutError("the request timed out in the queue"))
            else:
                future.cancel()

    def _forget(self, request_id: Any) -> asyncio.Future[Any] | None:
        self._items.pop(request_id, None)
        return self._futures.pop(request_id, None)
