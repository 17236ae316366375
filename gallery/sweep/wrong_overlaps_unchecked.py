"""WRONG: every function checks its intervals but overlapping_jobs, which trusts them.

An interval that ends before it starts, or has a negative time or GPU, is
refused by idle_windows and peak_concurrency, but overlapping_jobs sweeps it
as it comes: [5, 3) is skipped as if empty, [-2, 3) overlaps what it meets,
and a caller who only asks for the overlaps never hears that the log is
wrong.  Every function refuses such an interval with a ValueError (rule 9):
read the input through the one check, in every entry point.
"""

from collections import Counter
from collections.abc import Iterable

from variants.sweep import Busy, Peak, Window

FAILS = "sweep_validation"


def _checked(busy: Iterable[Busy]) -> list[Busy]:
    intervals = list(busy)
    for b in intervals:
        if b.start < 0 or b.end < b.start or b.gpu < 0:
            raise ValueError(f"bad interval {b}")
    return intervals


def _segments(busy: Iterable[Busy], horizon: Window) -> list[tuple[int, int, int]]:
    if horizon.end < horizon.start:
        raise ValueError(f"horizon ends before it starts: {horizon}")
    points = []
    for b in _checked(busy):
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
    windows: list[Window] = []
    for start, end, count in _segments(busy, horizon):
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
    points = sorted(  # the mistake: the intervals read as they come, never through _checked
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
