"""RIGHT, written unlike the reference: its own types, brute force, a list for phi's history.

`diagnose` walks the heartbeats once per rank; the guard tries every window
that starts at a silence; `PhiAccrual` keeps its history in a list and
computes phi as a softplus, ``(max(z, 0) + log1p(exp(-|z|))) / ln 10``.  The
suite compares answers by field, and phi within its stated tolerance, so all
of this must pass.  The phi mistakes in this folder are this class with one
method written as the mistake (`class PhiAccrual(Written)`).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from fractions import Fraction

FAILS = None


@dataclass(frozen=True)
class Beat:
    rank: int
    sent_at: int
    received_at: int
    progress: int


@dataclass(frozen=True)
class Stopped:
    rank: int
    last_heard: int | None
    silence: int


@dataclass(frozen=True)
class Hung:
    rank: int
    progress: int
    since: int
    stalled: int


@dataclass(frozen=True)
class Diagnosis:
    stopped: list[Stopped]
    hung: list[Hung]


@dataclass(frozen=True)
class CollectorFault:
    ranks: tuple[int, ...]
    fell_silent: tuple[int, int]


@dataclass(frozen=True)
class Guarded:
    stopped: list[Stopped]
    fault: CollectorFault | None


def diagnose(
    beats: Iterable[Beat],
    *,
    world_size: int,
    start: int,
    now: int,
    timeout: int,
    stall_timeout: int,
) -> Diagnosis:
    if world_size < 0 or timeout < 0 or stall_timeout < 0 or now < start:
        raise ValueError("impossible window")
    every = list(beats)
    for b in every:
        if not 0 <= b.rank < world_size or b.received_at < start or b.progress < 0:
            raise ValueError(f"impossible heartbeat {b}")
    stopped, hung = [], []
    for rank in range(world_size):
        mine = [b for b in every if b.rank == rank and b.received_at <= now]
        last = max((b.received_at for b in mine), default=None)
        silence = now - (start if last is None else last)
        if silence > timeout:
            stopped.append(Stopped(rank, last, silence))
        elif mine:
            top = max(b.progress for b in mine)
            since = min(b.received_at for b in mine if b.progress == top)
            if now - since > stall_timeout:
                hung.append(Hung(rank, top, since, now - since))
    stopped.sort(key=lambda s: (-s.silence, s.rank))
    hung.sort(key=lambda h: (h.progress, -h.stalled, h.rank))
    return Diagnosis(stopped, hung)


def guard_mass_silence(
    stopped: Iterable[Stopped],
    *,
    world_size: int,
    start: int,
    window: int,
    fraction: Fraction | float,
) -> Guarded:
    share, report = Fraction(fraction), list(stopped)
    ranks = [s.rank for s in report]
    if not 0 < share <= 1 or window < 0 or len(set(ranks)) < len(ranks):
        raise ValueError("impossible guard")
    if any(r < 0 or r >= world_size for r in ranks):
        raise ValueError("rank outside the world")

    def began(s: Stopped) -> int:
        return start if s.last_heard is None else s.last_heard

    best: list[Stopped] = []
    for first in sorted(report, key=began):
        group = [s for s in report if began(first) <= began(s) <= began(first) + window]
        if len(group) > len(best):
            best = group
    if len(best) < 2 or len(best) <= share * world_size:
        return Guarded(report, None)
    times = [began(s) for s in best]
    fault = CollectorFault(tuple(sorted(s.rank for s in best)), (min(times), max(times)))
    return Guarded([s for s in report if s not in best], fault)


class PhiAccrual:
    def __init__(
        self,
        *,
        clock: Callable[[], int],
        threshold: float = 8.0,
        max_sample_size: int = 1000,
        min_std_deviation: int = 100,
        acceptable_heartbeat_pause: int = 3000,
        first_heartbeat_estimate: int = 1000,
    ) -> None:
        if threshold <= 0 or max_sample_size <= 0 or min_std_deviation <= 0:
            raise ValueError("threshold, max_sample_size and min_std_deviation must be positive")
        if acceptable_heartbeat_pause < 0 or first_heartbeat_estimate <= 0:
            raise ValueError("bad pause or first estimate")
        self.clock, self.threshold, self.size = clock, threshold, max_sample_size
        self.floor, self.pause = min_std_deviation, acceptable_heartbeat_pause
        self.estimate = first_heartbeat_estimate
        self.history: list[int] = []
        self.last: int | None = None
        self.seen = -math.inf

    def heartbeat(self) -> None:
        now = self.tick()
        if self.last is None:
            self.history = self.bootstrap()
        elif self.suspicion(now) < self.threshold:
            self.history = [*self.history, now - self.last][-self.size :]
        self.last = now

    def phi(self) -> float:
        return self.suspicion(self.tick())

    def is_available(self) -> bool:
        return self.suspicion(self.tick()) < self.threshold

    def bootstrap(self) -> list[int]:
        quarter = self.estimate // 4
        return [self.estimate - quarter, self.estimate + quarter][-self.size :]

    def statistics(self) -> tuple[Fraction, float]:
        n = len(self.history)
        mean = Fraction(sum(self.history), n)
        variance = Fraction(sum(x * x for x in self.history), n) - mean**2
        return mean + self.pause, max(math.sqrt(variance), self.floor)

    def suspicion(self, now: int) -> float:
        if self.last is None:
            return 0.0
        mean, deviation = self.statistics()
        y = float((now - self.last - mean) / Fraction(deviation))
        z = y * (1.5976 + 0.070566 * y * y)
        return (max(z, 0.0) + math.log1p(math.exp(-abs(z)))) / math.log(10)

    def tick(self) -> int:
        now = self.clock()
        if now < self.seen:
            raise ValueError("the clock went back")
        self.seen = now
        return now
