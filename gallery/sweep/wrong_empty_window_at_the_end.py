"""WRONG: `<=` where the last window is closed, so an empty window [end, end) is reported.

After the last endpoint the sweep closes the window still open, from the
last endpoint to the horizon's end.  When the cluster was busy up to the
horizon's very end (or the horizon is empty) that window is [end, end):
nonempty windows only, so `since < horizon.end`, strictly.
"""

from collections import Counter
from collections.abc import Iterable

from variants.sweep import Busy, Window

FAILS = "sweep_edges"


def underused_windows(busy: Iterable[Busy], *, horizon: Window, below: int) -> list[Window]:
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
    windows: list[Window] = []

    def under(start: int, end: int, count: int) -> None:
        if count >= below:
            return
        if windows and windows[-1].end == start:
            windows[-1] = Window(windows[-1].start, end)
        else:
            windows.append(Window(start, end))

    open_on, since = Counter[int](), horizon.start
    for time, kind, gpu in points:
        if time > since:
            under(since, time, len(open_on))
            since = time
        open_on[gpu] += 1 if kind else -1
        if not open_on[gpu]:
            del open_on[gpu]
    if since <= horizon.end:  # the mistake: an empty window when since == horizon.end
        under(since, horizon.end, len(open_on))
    return windows


def idle_windows(busy: Iterable[Busy], *, horizon: Window) -> list[Window]:
    return underused_windows(busy, horizon=horizon, below=1)
