"""What the batcher's knobs buy, in a seeded discrete-event simulation on integer ticks.

One GPU (one batch in flight) serves requests arriving as a Poisson stream,
with lengths from a log-normal distribution (a long tail, as prompts have).
A batch costs a fixed launch plus a cost per *padded* token: a batch is
padded to its longest member.  The core `Batcher` makes every decision; the
simulation only moves time: it submits arrivals, polls, and completes each
batch when its cost has elapsed.

`grid` runs the size x wait trade-off: a larger batch and a longer wait buy
throughput (fewer launches) with latency.  `padding` compares first-come
batching with length buckets at the same token budget: buckets batch
similar lengths together, so less of each batch is padding.
"""

from __future__ import annotations

import math
from collections.abc import Hashable
from dataclasses import dataclass
from random import Random

from variants.batcher.core import Batcher
from variants.batcher.records import Batch, Config, QueueFull, Request


@dataclass(frozen=True)
class Load:
    rate: float = 0.03  # requests per tick, on average
    requests: int = 3_000
    median_tokens: int = 60
    sigma: float = 1.0  # of the log-normal: larger, a longer tail
    max_tokens: int = 1_024
    launch: int = 40  # ticks to launch a batch
    per_token: float = 0.005  # ticks per padded token


@dataclass(frozen=True)
class Result:
    sent: int  # requests completed
    refused: int  # QueueFull at submission
    ticks: int  # until the last completion
    p50: int  # latency, arrival to completion
    p99: int
    padded: int  # tokens computed, padding included
    useful: int  # tokens of the requests themselves
    gpu_ticks: int  # the GPU computing: launches and padded tokens

    @property
    def throughput(self) -> float:
        """Requests completed per 1,000 ticks."""
        return 1_000 * self.sent / max(self.ticks, 1)

    @property
    def padding_share(self) -> float:
        return 1 - self.useful / max(self.padded, 1)

    @property
    def gpu_share(self) -> float:
        """The share of the run the GPU was busy: what is left is headroom."""
        return self.gpu_ticks / max(self.ticks, 1)


def arrivals(load: Load, seed: int) -> list[tuple[int, int]]:
    """(arrival tick, tokens) for each request: Poisson arrivals, log-normal lengths."""
    rng, time, found = Random(seed), 0.0, []
    for _ in range(load.requests):
        time += rng.expovariate(load.rate)
        tokens = min(
            load.max_tokens,
            max(1, round(rng.lognormvariate(math.log(load.median_tokens), load.sigma))),
        )
        found.append((int(time), tokens))
    return found


def run(config: Config, load: Load, *, seed: int = 1) -> Result:
    """Every arrival submitted, every batch completed: the latencies and the tokens."""
    batcher, pending = Batcher(config), arrivals(load, seed)
    tokens: dict[Hashable, int] = dict(enumerate(t for _, t in pending))
    arrived: dict[Hashable, int] = {}
    latencies, refused, padded, useful = [], 0, 0, 0
    running: tuple[int, Batch] | None = None  # (done at, batch)
    gpu_ticks = 0
    index, now = 0, 0
    while index < len(pending) or batcher.queued or running is not None:
        if running is not None and running[0] <= now:
            batch = running[1]
            endings = batcher.complete(batch.id, [None] * len(batch.requests), now=now)
            latencies += [now - arrived.pop(ending.id) for ending in endings]
            running = None
        while index < len(pending) and pending[index][0] <= now:
            try:
                batcher.submit(Request(index, pending[index][1]), now=now)
                arrived[index] = now
            except QueueFull:
                refused += 1
            index += 1
        if index == len(pending):
            batcher.close()  # the stream is over: send the rest without waiting
        for batch in batcher.poll(now=now).batches:
            cost = load.launch + math.ceil(load.per_token * batch.padded_tokens)
            running, gpu_ticks = (now + cost, batch), gpu_ticks + cost
            padded += batch.padded_tokens
            useful += sum(tokens[r] for r in batch.requests)
        times = [
            t for t in (running[0] if running else None, batcher.next_wakeup()) if t is not None
        ]
        if index < len(pending):
            times.append(pending[index][0])
        now = max(now + 1, min(times)) if times else now + 1
    latencies.sort()
    return Result(
        len(latencies),
        refused,
        now,
        _quantile(latencies, 50),
        _quantile(latencies, 99),
        padded,
        useful,
        gpu_ticks,
    )


def _quantile(values: list[int], percent: int) -> int:
    """The nearest-rank percentile of sorted `values`."""
    if not values:
        return 0
    return values[max(0, math.ceil(percent / 100 * len(values)) - 1)]


RATES = (0.01, 0.03)  # requests a tick: light, and heavy enough that size 1 cannot keep up
SIZES = (1, 4, 16, 64)
WAITS = (0, 10, 40, 160)


SATURATED = Load(rate=5.0, requests=2_000)  # far more than any batch size can serve


def grid(load: Load = Load(), *, seed: int = 1) -> dict[tuple[int, int], Result]:
    """Every (max batch size, max wait) of the grid, on the same arrivals."""
    return {
        (size, wait): run(Config(size, wait, max_queue=10_000), load, seed=seed)
        for size in SIZES
        for wait in WAITS
    }


def capacity(load: Load = SATURATED, *, seed: int = 1) -> dict[int, Result]:
    """Per max batch size, the requests served per 1,000 ticks when the queue never empties."""
    return {size: run(Config(size, 0, max_queue=10_000), load, seed=seed) for size in SIZES}


def padding(load: Load = SATURATED, *, budget: int = 4_096, seed: int = 1) -> dict[str, Result]:
    """First come, first batched, against length buckets, at the same token budget."""
    first_come = Config(256, 50, max_queue=100_000, token_budget=budget)
    buckets = Config(
        256, 50, max_queue=100_000, token_budget=budget, buckets=(32, 64, 128, 256, 512)
    )
    return {
        "first come": run(first_come, load, seed=seed),
        "length buckets": run(buckets, load, seed=seed),
    }
