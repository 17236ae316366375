"""WRONG: at equal times, starts are processed before ends.

Sorting endpoints as (time, 0 for a start, 1 for an end) makes a job that
starts as another ends look concurrent with it: the peak counts both, and
touching jobs "overlap".  Everything else here is the standard sweep.
"""

from collections import Counter
from collections.abc import Iterable, Iterator

from variants.sweep import Busy, Peak, Window

FAILS = "sweep_convention"
START, END = 0, 1  # the mistake: starts sort before ends


def _endpoints(busy: Iterable[Busy], lo: int, hi: int) -> list[tuple[int, int, Busy]]:
    points = []
    for b in busy:
        if b.start < 0 or b.end < b.start or b.gpu < 0:
            raise ValueError(f"bad interval {b}")
        start, end = max(b.start, lo), min(b.end, hi)
        if start < end:
            points += [(start, START, b), (end, END, b)]
    return sorted(points, key=lambda p: (p[0], p[1]))


def _segments(busy: Iterable[Busy], horizon: Window) -> Iterator[tuple[int, int, int]]:
    if horizon.end < horizon.start:
        raise ValueError(f"horizon ends before it starts: {horizon}")
    open_on = Counter[int]()
    count, since = 0, horizon.start
    for time, kind, b in _endpoints(busy, horizon.start, horizon.end):
        yield since, time, count  # (a zero-length segment is harmless below)
        since = time
        open_on[b.gpu] += 1 if kind == START else -1
        count = sum(1 for n in open_on.values() if n > 0)
    yield since, horizon.end, count


def peak_concurrency(busy: Iterable[Busy], *, horizon: Window) -> Peak:
    peak = None
    for start, end, count in _segments(busy, horizon):
        if peak is None or count > peak.busy:
            peak = Peak(count, Window(start, end))
        elif count == peak.busy and peak.window.end == start:
            peak = Peak(count, Window(peak.window.start, end))
    assert peak is not None
    return peak


def overlapping_jobs(busy: Iterable[Busy]) -> list[tuple[str, str]]:
    active = Counter[str]()
    pairs = set()
    for _, kind, b in _endpoints(busy, 0, 2**63):
        if kind == START:
            if not active[b.job]:
                pairs |= {(min(b.job, j), max(b.job, j)) for j, n in active.items() if n}
            active[b.job] += 1
        else:
            active[b.job] -= 1
            if not active[b.job]:
                del active[b.job]
    return sorted(pairs)
