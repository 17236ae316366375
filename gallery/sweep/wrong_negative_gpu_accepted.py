"""WRONG: a negative GPU number is accepted.

Times are checked (no negative time, no interval ending before it starts),
but GPU -1 is counted as one more GPU: in Python it even indexes the last
GPU of a list.  A GPU is a number in [0, gpus): refuse anything else.
"""

from collections import Counter
from collections.abc import Iterable

from variants.sweep import Busy, Peak, Window

FAILS = "sweep_validation"


def _segments(busy: Iterable[Busy], horizon: Window) -> list[tuple[int, int, int]]:
    if horizon.end < horizon.start:
        raise ValueError(f"horizon ends before it starts: {horizon}")
    points = []
    for b in busy:
        if b.start < 0 or b.end < b.start:  # the mistake: b.gpu < 0 is not refused
            raise ValueError(f"bad interval {b}")
        start, end = max(b.start, horizon.start), min(b.end, horizon.end)
        if start < end:
            points += [(start, 1, b.gpu), (end, 0, b.gpu)]
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
