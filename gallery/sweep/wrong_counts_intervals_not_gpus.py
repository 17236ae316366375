"""WRONG: the sweep counts open intervals, not busy GPUs.

`count += 1` at every start and `-= 1` at every end is the textbook sweep,
but it counts jobs: two jobs sharing one GPU make it look like two GPUs
busy.  The peak then reports more GPUs than are busy, and a cluster running
below capacity is not seen as underused.  A GPU is busy while at least one
interval on it is open: count per GPU, and count the GPUs.
"""

from collections.abc import Iterable, Iterator

from variants.sweep import Busy, Peak, Window

FAILS = "sweep_peak"


def _segments(busy: Iterable[Busy], horizon: Window) -> Iterator[tuple[int, int, int]]:
    if horizon.end < horizon.start:
        raise ValueError(f"horizon ends before it starts: {horizon}")
    points = []
    for b in busy:
        if b.start < 0 or b.end < b.start or b.gpu < 0:
            raise ValueError(f"bad interval {b}")
        start, end = max(b.start, horizon.start), min(b.end, horizon.end)
        if start < end:
            points += [(start, 1), (end, -1)]
    points.sort()  # ends (-1) before starts (+1) at equal times
    count, since = 0, horizon.start
    for time, delta in points:
        if time > since:
            yield since, time, count
            since = time
        count += delta  # the mistake: intervals counted, not the GPUs they run on
    if since < horizon.end:
        yield since, horizon.end, count


def underused_windows(busy: Iterable[Busy], *, horizon: Window, below: int) -> list[Window]:
    windows: list[Window] = []
    for start, end, count in _segments(busy, horizon):
        if count >= below:
            continue
        if windows and windows[-1].end == start:
            windows[-1] = Window(windows[-1].start, end)
        else:
            windows.append(Window(start, end))
    return windows


def idle_windows(busy: Iterable[Busy], *, horizon: Window) -> list[Window]:
    return underused_windows(busy, horizon=horizon, below=1)


def peak_concurrency(busy: Iterable[Busy], *, horizon: Window) -> Peak:
    peak: Peak | None = None
    for start, end, count in _segments(busy, horizon):
        if peak is None or count > peak.busy:
            peak = Peak(count, Window(start, end))
        elif count == peak.busy and peak.window.end == start:
            peak = Peak(count, Window(peak.window.start, end))
    return peak or Peak(0, horizon)
