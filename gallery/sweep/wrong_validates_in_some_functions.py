"""WRONG: only idle_windows checks its intervals; overlapping_jobs and peak_concurrency trust them.

Each function is an entry point a caller may use alone: an interval that
ends before it starts must be refused by every one of them, not only by the
one that happened to get the check.  Put the check where every function
reads its input.
"""

from collections import Counter
from collections.abc import Iterable

from variants.sweep import Busy, Peak, Window

FAILS = "sweep_validation"


def _segments(busy: Iterable[Busy], horizon: Window) -> list[tuple[int, int, int]]:
    if horizon.end < horizon.start:
        raise ValueError(f"horizon ends before it starts: {horizon}")
    points = []
    for b in busy:  # the mistake: no check of the interval here
        start, end = max(b.start, horizon.start), min(b.end, horizon.end)
        if start < end:
            points += [(start, 1, b.gpu), (end, 0, b.gpu)]  # ends (0) before starts (1)
    points.sort()
    segments, open_on, since = [], Counter[int](), horizon.start
    for time, kind, gpu in points:
        if time > since:
            segments.append((since, time, len(open_on)))
            since = time
        open_on[gpu] += 1 if kind else -1
        if not open_on[gpu]:
            del open_on[gpu]
    if since < horizon.end:
        segments.append((since, horizon.end, len(open_on)))
    return segments


def idle_windows(busy: Iterable[Busy], *, horizon: Window) -> list[Window]:
    intervals = list(busy)
    for b in intervals:
        if b.start < 0 or b.end < b.start or b.gpu < 0:
            raise ValueError(f"bad interval {b}")
    windows: list[Window] = []
    for start, end, count in _segments(intervals, horizon):
        if count:
            continue
        if windows and windows[-1].end == start:
            windows[-1] = Window(windows[-1].start, end)
        else:
            windows.append(Window(start, end))
    return windows


def peak_concurrency(busy: Iterable[Busy], *, horizon: Window) -> Peak:
    peak: Peak | None = None
    for start, end, count in _segments(busy, horizon):
        if peak is None or count > peak.busy:
            peak = Peak(count, Window(start, end))
        elif count == peak.busy and peak.window.end == start:
            peak = Peak(count, Window(peak.window.start, end))
    return peak or Peak(0, horizon)


def overlapping_jobs(busy: Iterable[Busy]) -> list[tuple[str, str]]:
    points = sorted(
        (t, kind, b.job) for b in busy if b.start < b.end for t, kind in ((b.start, 1), (b.end, 0))
    )
    active, pairs = Counter[str](), set()
    for _, kind, job in points:
        if kind and not active[job]:
            pairs |= {(min(job, other), max(job, other)) for other in active}
        active[job] += 1 if kind else -1
        if not active[job]:
            del active[job]
    return sorted(pairs)
