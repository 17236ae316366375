"""WRONG: the peak found over the whole log, and only its window cut to the horizon.

The busiest moment of the log may lie outside the question asked.  Swept
unclipped, a job that starts just as the horizon ends is the peak, and
cutting its window to the horizon leaves an empty window [end, end) with a
GPU "busy" in it.  Clip the intervals to the horizon before sweeping.
"""

from collections import Counter
from collections.abc import Iterable, Iterator

from variants.sweep import Busy, Peak, Window

FAILS = "sweep_edges"


def _segments(busy: Iterable[Busy], horizon: Window) -> Iterator[tuple[int, int, int]]:
    if horizon.end < horizon.start:
        raise ValueError(f"horizon ends before it starts: {horizon}")
    points = []
    for b in busy:
        if b.start < 0 or b.end < b.start or b.gpu < 0:
            raise ValueError(f"bad interval {b}")
        start, end = max(b.start, horizon.start), min(b.end, horizon.end)
        if start < end:
            points += [(start, 1, b.gpu), (end, 0, b.gpu)]
    points.sort()
    open_on, since = Counter[int](), horizon.start
    for time, kind, gpu in points:
        if time > since:
            yield since, time, len(open_on)
            since = time
        open_on[gpu] += 1 if kind else -1
        if not open_on[gpu]:
            del open_on[gpu]
    if since < horizon.end:
        yield since, horizon.end, len(open_on)


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
    if horizon.end < horizon.start:
        raise ValueError(f"horizon ends before it starts: {horizon}")
    points = []
    for b in busy:
        if b.start < 0 or b.end < b.start or b.gpu < 0:
            raise ValueError(f"bad interval {b}")
        if b.start < b.end:  # the mistake: not clipped to the horizon
            points += [(b.start, 1, b.gpu), (b.end, 0, b.gpu)]
    points.sort()
    peak, open_on, since = Peak(0, horizon), Counter[int](), 0
    for time, kind, gpu in points:
        if time > since and open_on:
            count = len(open_on)
            if count > peak.busy:
                peak = Peak(count, Window(since, time))
            elif count == peak.busy and peak.window.end == since:
                peak = Peak(count, Window(peak.window.start, time))
        since = time
        open_on[gpu] += 1 if kind else -1
        if not open_on[gpu]:
            del open_on[gpu]
    if peak.busy:  # the window cut to the horizon, after the fact
        peak = Peak(
            peak.busy,
            Window(max(peak.window.start, horizon.start), min(peak.window.end, horizon.end)),
        )
    return peak
