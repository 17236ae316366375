"""Seeded discrete-event simulations, in integer ticks, of what retries do to a dependency.

`study`, the AWS Architecture Blog's experiment ("Exponential Backoff And
Jitter", 2015) in its own setup (its simulator, aws-samples/
aws-arch-backoff-simulator): N clients each update one row once, under
optimistic concurrency, over a network whose every hop takes |N(10, 2)| ms.
A client reads the version, writes it back, and on a conflict waits (the
network's delay plus its schedule's backoff, base 5 ms, cap 2 s, retry n
waiting up to base * 2**n) and starts again.  "no backoff" retries at once.
Ticks are microseconds, so the network's delay is an integer too.

`contention`, this project's simpler model of the same question: every
client starts at tick 0, a write takes a fixed `call` ticks with no network
between, and retry n waits up to base * 2**(n - 1) (the contract's backoff).
With no noise at all, clients without jitter stay in step forever, which
the study's network delay slowly undoes.

`outage`: client processes send requests at a steady rate to a server that
fails every call for a window, then recovers, with a capacity above the
offered load.  Retries multiply the load during the outage (1 + f + ... +
f**(n-1) times it with failure probability f and n attempts: 3x for f = 1
and n = 3), and the retries still queued after recovery can push the load
past capacity: an outage followed by an overload.  A budget caps the
multiplication.
"""

from __future__ import annotations

import heapq
from collections import Counter
from dataclasses import dataclass
from fractions import Fraction
from random import Random

from variants.retry.backoff import (
    decorrelated_jitter,
    equal_jitter,
    exponential_backoff,
    full_jitter,
)
from variants.retry.budget import RetryBudget

SCHEDULES = ("no jitter", "full jitter", "equal jitter", "decorrelated jitter")


def wait_for(schedule: str, retry: int, previous: int, base: int, cap: int, rng: Random) -> int:
    """The wait before `retry` under `schedule` (`previous`: the last wait, for decorrelated)."""
    if schedule == "no jitter":
        return exponential_backoff(retry, base=base, cap=cap)
    if schedule == "full jitter":
        return full_jitter(retry, base=base, cap=cap, rng=rng)
    if schedule == "equal jitter":
        return equal_jitter(retry, base=base, cap=cap, rng=rng)
    return decorrelated_jitter(previous, base=base, cap=cap, rng=rng)


@dataclass(frozen=True)
class Contention:
    clients: int
    schedule: str
    calls: int  # writes attempted, conflicts included: the work
    completion: int  # ticks until the last client committed


def contention(
    clients: int, schedule: str, *, seed: int, call: int = 10, base: int = 10, cap: int = 10_000
) -> Contention:
    """All `clients` start at tick 0; each retries its write until it commits."""
    rng = Random(seed)
    # (commit time, client, read time, retries so far, previous wait)
    pending = [(call, client, 0, 0, base) for client in range(clients)]
    heapq.heapify(pending)
    last_commit, calls, completion = -1, 0, 0
    while pending:
        end, client, read, retries, previous = heapq.heappop(pending)
        calls += 1
        if last_commit <= read:  # nobody committed since this write read the version
            last_commit = completion = end
            continue
        wait = wait_for(schedule, retries + 1, previous, base, cap, rng)
        heapq.heappush(
            pending, (end + wait + call, client, end + wait, retries + 1, max(wait, base))
        )
    return Contention(clients, schedule, calls, completion)


STUDY_SCHEDULES = ("no backoff", *SCHEDULES)
MS = 1_000  # ticks (microseconds) in a millisecond


@dataclass(frozen=True)
class Study:
    clients: int
    schedule: str
    calls: int  # writes sent to the row, conflicts included: the work
    completion: int  # ticks (us) until the last client's write succeeded


def study(
    clients: int,
    schedule: str,
    *,
    seed: int,
    base: int = 5 * MS,
    cap: int = 2_000 * MS,
    delay: tuple[int, int] = (10 * MS, 2 * MS),
) -> Study:
    """The study's run: every client updates the row once; every message crosses the network."""
    rng = Random(seed)

    def hop() -> int:
        return round(abs(rng.normalvariate(*delay)))

    def backoff(retry: int, previous: int) -> int:
        if schedule == "no backoff":
            return 0
        # The study's retry n waits up to base * 2**n: the contract's retry n + 1.
        return wait_for(schedule, retry + 1, previous, base, cap, rng)

    # (time, order, what arrives, client, version read)
    events = [(hop(), client, "read", client, 0) for client in range(clients)]
    heapq.heapify(events)
    order, version, calls, completion = clients, 0, 0, 0
    retries, previous = [0] * clients, [base] * clients
    while events:
        time, _, what, client, read = heapq.heappop(events)
        order += 1
        if what == "read":  # the server reads the row; the version goes back to the client
            heapq.heappush(events, (time + hop(), order, "version", client, version))
        elif what == "version":  # the client writes back the version it read
            heapq.heappush(events, (time + hop(), order, "write", client, read))
        elif what == "write":  # the server commits iff nobody committed since that read
            calls += 1
            committed = read == version
            version += committed
            heapq.heappush(events, (time + hop(), order, "ok" if committed else "no", client, 0))
        elif what == "ok":
            completion = max(completion, time)
        else:  # a conflict: wait, then read again
            retries[client] += 1
            wait = backoff(retries[client], previous[client])
            previous[client] = max(wait, base)
            heapq.heappush(events, (time + hop() + wait, order, "read", client, 0))
    return Study(clients, schedule, calls, completion)


def study_table(
    sizes: list[int], *, seeds: int = 20, first_seed: int = 1
) -> dict[str, list[tuple[int, Fraction, Fraction]]]:
    """Per schedule, per client count: mean calls and mean completion (ms) over `seeds` runs."""
    table: dict[str, list[tuple[int, Fraction, Fraction]]] = {}
    for schedule in STUDY_SCHEDULES:
        for clients in sizes:
            runs = [study(clients, schedule, seed=first_seed + s) for s in range(seeds)]
            calls = Fraction(sum(r.calls for r in runs), seeds)
            completion = Fraction(sum(r.completion for r in runs), seeds * MS)
            table.setdefault(schedule, []).append((clients, calls, completion))
    return table


def contention_table(
    sizes: list[int], *, seeds: int = 10, first_seed: int = 1
) -> dict[str, list[tuple[int, Fraction, Fraction]]]:
    """Per schedule, per client count: mean calls and mean completion over `seeds` runs."""
    table: dict[str, list[tuple[int, Fraction, Fraction]]] = {}
    for schedule in SCHEDULES:
        for clients in sizes:
            runs = [contention(clients, schedule, seed=first_seed + s) for s in range(seeds)]
            calls = Fraction(sum(r.calls for r in runs), seeds)
            completion = Fraction(sum(r.completion for r in runs), seeds)
            table.setdefault(schedule, []).append((clients, calls, completion))
    return table


BUDGETS = ("no retries", "3 attempts", "3 attempts, token bucket", "3 attempts, 10% budget")


class _ProcessBudget:
    """One client process's budget in the outage, by kind: none, gRPC tokens, or 10%."""

    def __init__(self, kind: str) -> None:
        self.kind = kind
        self.tokens = RetryBudget(10, Fraction(1, 10))
        self.percent = PercentBudget(Fraction(1, 10), reserve=10)

    def new_request(self) -> None:
        self.percent.deposit()

    def record(self, *, success: bool) -> None:
        self.tokens.record(success=success)

    def may_retry(self) -> bool:
        if "token" in self.kind:
            return self.tokens.allows_retry()
        if "10%" in self.kind:
            return self.percent.withdraw()
        return True


@dataclass(frozen=True)
class Outage:
    budget: str
    offered: int  # requests started during the outage
    calls: int  # attempts that reached the server during the outage
    drain: int  # ticks from recovery to the last failed attempt
    calls_per_bucket: tuple[int, ...]  # attempts per bucket of ticks, over the whole run

    @property
    def amplification(self) -> Fraction:
        return Fraction(self.calls, self.offered)


def outage(
    budget: str,
    *,
    seed: int,
    processes: int = 10,
    period: int = 10,  # each process starts a request every `period` ticks: 1 a tick in all
    down: tuple[int, int] = (2_000, 5_000),
    end: int = 9_000,
    capacity: int = 12,  # attempts the server can serve per bucket once up (offered: 10)
    bucket: int = 10,
    base: int = 50,
    cap: int = 1_000,
) -> Outage:
    """Every request tries up to 3 times (1 with "no retries"), full jitter between."""
    rng = Random(seed)
    attempts = 1 if budget == "no retries" else 3
    budgets = [_ProcessBudget(budget) for _ in range(processes)]
    # (time, order, process, attempt number)
    queue = [(t, t * processes + p, p, 1) for p in range(processes) for t in range(p, end, period)]
    heapq.heapify(queue)
    order, served, per_bucket = len(queue), Counter[int](), Counter[int]()
    offered = calls = last_failure = 0
    while queue:
        time, _, process, number = heapq.heappop(queue)
        during = down[0] <= time < down[1]
        per_bucket[time // bucket] += 1
        calls += during
        if number == 1:
            offered += during
            budgets[process].new_request()
        if not during and served[time // bucket] < capacity:
            served[time // bucket] += 1
            budgets[process].record(success=True)
            continue
        budgets[process].record(success=False)  # down, or over capacity: a 503
        last_failure = max(last_failure, time)
        if number < attempts and budgets[process].may_retry():
            wait = full_jitter(number, base=base, cap=cap, rng=rng)
            order += 1
            heapq.heappush(queue, (time + wait, order, process, number + 1))
    buckets = tuple(per_bucket[b] for b in range(max(per_bucket) + 1))
    return Outage(budget, offered, calls, max(0, last_failure + 1 - down[1]), buckets)


def bars(values: list[Fraction] | list[int], width: int = 40) -> list[str]:
    """A text bar per value, the largest `width` characters long."""
    top = max(values, default=0) or 1
    return ["#" * round(Fraction(v) / top * width) for v in values]


def load_chart(run: Outage, *, columns: int = 60, rows: int = 6) -> list[str]:
    """The attempts per tick over the run, as a small text chart: one column per slice."""
    per_column = -(-len(run.calls_per_bucket) // columns)
    sums = [
        sum(run.calls_per_bucket[i : i + per_column])
        for i in range(0, len(run.calls_per_bucket), per_column)
    ]
    top = max(sums, default=0) or 1
    return [
        "".join("#" if value * rows >= row * top else " " for value in sums).rstrip()
        for row in range(rows, 0, -1)
    ]


class PercentBudget:
    """Finagle-style: retries at most `percent` of requests, with a reserve of `reserve` retries.

    Each new request deposits `percent` of a retry; each retry withdraws one;
    the balance never exceeds `reserve`, so over a long run retries stay
    within ``percent`` of requests (plus the reserve once).  Used by the
    simulation, beside the token bucket.
    """

    def __init__(self, percent: Fraction, reserve: int) -> None:
        if not 0 <= percent <= 1 or reserve < 1:
            raise ValueError("percent must be in [0, 1] and reserve >= 1")
        self.percent, self.reserve = percent, reserve
        self._balance = Fraction(reserve)

    def deposit(self) -> None:
        """A new request: it earns `percent` of a retry."""
        self._balance = min(Fraction(self.reserve), self._balance + self.percent)

    def withdraw(self) -> bool:
        """Take one retry if the balance holds one; whether it did."""
        if self._balance < 1:
            return False
        self._balance -= 1
        return True
