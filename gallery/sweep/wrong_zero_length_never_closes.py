"""WRONG: a zero-length interval [t, t) is kept, and its end, sorted first, closes nothing.

The sweep keeps the set of open intervals: added at their start, removed at
their end, ends first at equal times.  A zero-length interval's end then
comes before its own start: it removes what is not there yet, and the start
opens an interval that nothing ever closes.  Its GPU counts as busy from t
to the horizon's end.  [t, t) is busy at no instant: leave it out.
"""

from collections.abc import Iterable, Iterator

from variants.sweep import Busy, Peak, Window

FAILS = "sweep_edges"


def _segments(busy: Iterable[Busy], horizon: Window) -> Iterator[tuple[int, int, int]]:
    if horizon.end < horizon.start:
        raise ValueError(f"horizon ends before it starts: {horizon}")
    intervals: list[Busy] = []
    points: list[tuple[int, int, int]] = []
    for b in busy:
        if b.start < 0 or b.end < b.start or b.gpu < 0:
            raise ValueError(f"bad interval {b}")
        start, end = max(b.start, horizon.start), min(b.end, horizon.end)
        if start <= end:  # the mistake: [t, t) kept, its end sorted before its start
            points += [(start, 1, len(intervals)), (end, 0, len(intervals))]
            intervals.append(b)
    points.sort()  # ends (0) before starts (1) at equal times
    open_now: set[int] = set()  # the intervals open, by index
    since = horizon.start
    for time, kind, index in points:
        if time > since:
            yield since, time, len({intervals[i].gpu for i in open_now})
            since = time
        if kind:
            open_now.add(index)
        else:
            open_now.discard(index)
    if since < horizon.end:
        yield since, horizon.end, len({intervals[i].gpu for i in open_now})


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
