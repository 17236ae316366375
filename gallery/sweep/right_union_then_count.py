"""RIGHT, written unlike the reference: merge each GPU's intervals, then count.

Each GPU's intervals are first merged into disjoint busy runs (so a GPU shared
by two jobs is busy once), and the busy count is kept as a map of changes,
time -> delta, read in time order.  Windows, utilization and the peak come
from those counts; overlaps from each job's merged runs.  Plain dicts and
dataclasses: the suite compares answers by their fields.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from fractions import Fraction
from itertools import accumulate
from typing import Protocol

FAILS = None


class Interval(Protocol):
    @property
    def gpu(self) -> int: ...
    @property
    def job(self) -> str: ...
    @property
    def start(self) -> int: ...
    @property
    def end(self) -> int: ...


class Horizon(Protocol):
    @property
    def start(self) -> int: ...
    @property
    def end(self) -> int: ...


@dataclass(frozen=True)
class Span:
    start: int
    end: int


@dataclass(frozen=True)
class Top:
    busy: int
    window: Span


def _merged(runs: list[tuple[int, int]]) -> list[tuple[int, int]]:
    out: list[tuple[int, int]] = []
    for start, end in sorted(r for r in runs if r[0] < r[1]):
        if out and start <= out[-1][1]:  # touching or overlapping: one busy run
            out[-1] = (out[-1][0], max(out[-1][1], end))
        else:
            out.append((start, end))
    return out


def _checked(busy: Iterable[Interval]) -> list[Interval]:
    items = list(busy)
    for b in items:
        if b.start < 0 or b.end < b.start or b.gpu < 0:
            raise ValueError(f"impossible interval {b}")
    return items


def _counts(busy: Iterable[Interval], lo: int, hi: int) -> list[tuple[int, int, int]]:
    by_gpu: dict[int, list[tuple[int, int]]] = defaultdict(list)
    for b in _checked(busy):
        by_gpu[b.gpu].append((max(b.start, lo), min(b.end, hi)))
    delta: dict[int, int] = defaultdict(int)
    for runs in by_gpu.values():
        for start, end in _merged(runs):
            delta[start] += 1
            delta[end] -= 1
    times = sorted({lo, hi, *delta})
    levels = list(accumulate(delta.get(t, 0) for t in times))
    return [(a, b, n) for a, b, n in zip(times, times[1:], levels, strict=False) if a < b]


def underused_windows(busy: Iterable[Interval], *, horizon: Horizon, below: int) -> list[Span]:
    lo, hi = horizon.start, horizon.end
    runs = [(a, b) for a, b, n in _counts(busy, lo, hi) if n < below]
    return [Span(a, b) for a, b in _merged(runs)]


def idle_windows(busy: Iterable[Interval], *, horizon: Horizon) -> list[Span]:
    return underused_windows(busy, horizon=horizon, below=1)


def peak_concurrency(busy: Iterable[Interval], *, horizon: Horizon) -> Top:
    lo, hi = horizon.start, horizon.end
    counts = _counts(busy, lo, hi)
    if not counts:
        return Top(0, Span(lo, hi))
    top = max(n for _, _, n in counts)
    first = _merged([(a, b) for a, b, n in counts if n == top])[0]
    return Top(top, Span(*first))


def utilization(
    busy: Iterable[Interval], *, gpus: int, horizon: Horizon, bucket: int
) -> list[Fraction]:
    if gpus < 1 or bucket < 1:
        raise ValueError("need gpus >= 1 and bucket >= 1")
    items = _checked(busy)
    if any(b.gpu >= gpus for b in items):
        raise ValueError("a GPU outside the cluster")
    lo, hi = horizon.start, horizon.end
    counts = _counts(items, lo, hi)
    shares = []
    for left in range(lo, hi, bucket):
        right = min(left + bucket, hi)
        used = sum(n * max(0, min(b, right) - max(a, left)) for a, b, n in counts)
        shares.append(Fraction(used, gpus * (right - left)))
    return shares


def overlapping_jobs(busy: Iterable[Interval]) -> list[tuple[str, str]]:
    by_job: dict[str, list[tuple[int, int]]] = defaultdict(list)
    for b in _checked(busy):
        by_job[b.job].append((b.start, b.end))
    points = sorted(
        (t, kind, job)
        for job, runs in by_job.items()
        for start, end in _merged(runs)
        for t, kind in ((start, 1), (end, 0))
    )
    active: set[str] = set()
    pairs: set[tuple[str, str]] = set()
    for _, kind, job in points:
        if kind:
            pairs |= {(min(job, other), max(job, other)) for other in active}
            active.add(job)
        else:
            active.discard(job)
    return sorted(pairs)
