"""WRONG: underused taken as "at most `below` GPUs busy", not "fewer than `below`".

An off-by-one in the comparison, `count <= below`: below=0 reports the idle
windows instead of none, below=2 reports times when two GPUs are busy, and
windows that should stop where the count reaches `below` run on.  Fewer
than: `count < below` (so idle_windows is below=1).
"""

from collections import Counter
from collections.abc import Iterable

from variants.sweep import Busy, Window

FAILS = "sweep_windows"


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
    windows: list[Window] = []
    for start, end, count in segments:
        if count > below:  # the mistake: a count of exactly `below` is kept as underused
            continue
        if windows and windows[-1].end == start:
            windows[-1] = Window(windows[-1].start, end)
        else:
            windows.append(Window(start, end))
    return windows
