"""What the asyncio batcher costs per request, beside a bare batcher on asyncio.Queue.

    python3 benchmarks/batcher.py            # 1, 16 and 256 concurrent clients
    python3 benchmarks/batcher.py --smoke    # small, for CI

Each client awaits one request after another (a closed loop), so the queue
holds at most one request per client.  The model returns at once: what is
measured is the batching machinery alone.  The baseline is the least a
batching front end can do on asyncio: a future per request, an
``asyncio.Queue`` put/get pair, one consumer taking up to a batch at a time.
`AsyncBatcher` does the same work plus the core's decisions (a bounded
queue, priorities, buckets, deadlines, cancellation), with the same batch
size, no wait and one batch in flight.  Below both, the floor of any
asyncio batcher: a future per request and a task switch to one consumer
(a list and one wake-up future, nothing else).  Printed: microseconds per
request, best of five, measured side by side in one run; the core's share,
the same submits, polls and completions with no event loop; AsyncBatcher
beside the Queue baseline; and its shell (AsyncBatcher less its core
alone: the futures, the driver, the runners) beside the floor.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from variants.batcher import AsyncBatcher, Batcher, Config, Request

BATCH = 16
Submit = Callable[[int], Awaitable[Any]]


async def model(items: list[int]) -> list[int]:
    return [2 * item for item in items]


class QueueBatcher:
    """The baseline: a future per request, a Queue put/get pair, one consumer."""

    def __init__(self, max_batch_size: int) -> None:
        self.queue: asyncio.Queue[tuple[int, asyncio.Future[int]]] = asyncio.Queue()
        self.size = max_batch_size
        self.consumer: asyncio.Task[None] | None = None

    async def submit(self, item: int) -> int:
        loop = asyncio.get_running_loop()
        if self.consumer is None:
            self.consumer = loop.create_task(self.consume())
        future: asyncio.Future[int] = loop.create_future()
        self.queue.put_nowait((item, future))
        return await future

    async def consume(self) -> None:
        while True:
            batch = [await self.queue.get()]
            while len(batch) < self.size and not self.queue.empty():
                batch.append(self.queue.get_nowait())
            results = await model([item for item, _ in batch])
            for (_, future), result in zip(batch, results, strict=True):
                if not future.done():
                    future.set_result(result)


class FloorBatcher:
    """The floor: a future per request appended to a list; the consumer, woken by one
    future when the list was empty, takes up to a batch and resolves them."""

    def __init__(self, max_batch_size: int) -> None:
        self.pending: list[tuple[int, asyncio.Future[int]]] = []
        self.waiter: asyncio.Future[None] | None = None
        self.size = max_batch_size
        self.consumer: asyncio.Task[None] | None = None

    async def submit(self, item: int) -> int:
        loop = asyncio.get_running_loop()
        if self.consumer is None:
            self.consumer = loop.create_task(self.consume())
        future: asyncio.Future[int] = loop.create_future()
        self.pending.append((item, future))
        if self.waiter is not None and not self.waiter.done():
            self.waiter.set_result(None)
        return await future

    async def consume(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            if not self.pending:
                self.waiter = loop.create_future()
                await self.waiter
            batch, self.pending = self.pending[: self.size], self.pending[self.size :]
            results = await model([item for item, _ in batch])
            for (_, future), result in zip(batch, results, strict=True):
                if not future.done():
                    future.set_result(result)


async def closed_loop(submit: Submit, clients: int, each: int) -> None:
    async def client(first: int) -> None:
        for item in range(first, first + each):
            if await submit(item) != 2 * item:
                raise AssertionError(f"wrong result for {item}")

    await asyncio.gather(*(client(c * each) for c in range(clients)))


def per_request_us(
    make: Callable[[], tuple[Submit, Callable[[], Awaitable[None]]]], clients: int, each: int
) -> float:
    """Best of five runs, each on a fresh loop and batcher, in microseconds per request."""
    best = float("inf")
    for _ in range(5):

        async def once() -> float:
            submit, stop = make()
            began = time.perf_counter_ns()
            await closed_loop(submit, clients, each)
            elapsed = time.perf_counter_ns() - began
            await stop()
            return elapsed / (clients * each) / 1_000

        best = min(best, asyncio.run(once()))
    return best


def baseline() -> tuple[Submit, Callable[[], Awaitable[None]]]:
    batcher = QueueBatcher(BATCH)

    async def stop() -> None:
        if batcher.consumer is not None:
            batcher.consumer.cancel()

    return batcher.submit, stop


def floor() -> tuple[Submit, Callable[[], Awaitable[None]]]:
    batcher = FloorBatcher(BATCH)

    async def stop() -> None:
        if batcher.consumer is not None:
            batcher.consumer.cancel()

    return batcher.submit, stop


def batched() -> tuple[Submit, Callable[[], Awaitable[None]]]:
    batcher = AsyncBatcher(model, Config(max_batch_size=BATCH, max_wait=0, max_queue=10_000))
    return batcher.submit, batcher.close


def core_us(clients: int, each: int) -> float:
    """The core's share: the same requests, batches and completions, with no event loop."""
    best = float("inf")
    for _ in range(5):
        core = Batcher(Config(max_batch_size=BATCH, max_wait=0, max_queue=10_000))
        began = time.perf_counter_ns()
        for now in range(each):
            for client in range(clients):
                core.submit(Request(client), now=now)
            while core.queued:
                for batch in core.poll(now=now).batches:
                    core.complete(batch.id, [None] * len(batch.requests), now=now)
                core.next_wakeup()
        best = min(best, (time.perf_counter_ns() - began) / (clients * each) / 1_000)
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--smoke", action="store_true", help="small sizes, for CI")
    args = parser.parse_args()
    sizes = [(1, 200), (16, 50)] if args.smoke else [(1, 20_000), (16, 2_000), (256, 200)]
    header = ("clients", "requests", "floor", "Queue", "AsyncBatcher", "core alone")
    print("{:>8} {:>9} {:>8} {:>8} {:>13} {:>11}".format(*header), end="")
    print("  {:>9} {:>12}".format("vs Queue", "shell/floor"))
    for clients, each in sizes:
        least = per_request_us(floor, clients, each)
        bare = per_request_us(baseline, clients, each)
        ours = per_request_us(batched, clients, each)
        core = core_us(clients, each)
        print(
            f"{clients:>8} {clients * each:>9,} {least:>6.1f}us {bare:>6.1f}us {ours:>11.1f}us"
            f" {core:>9.1f}us  {ours / bare:>8.2f}x {(ours - core) / least:>11.2f}x"
        )


if __name__ == "__main__":
    main()
