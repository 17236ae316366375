"""WRONG: adjacent underused pieces with different counts not merged.

Underused windows are built from the sweep's constant pieces, joined only
when the count stays the same: with below=2, no GPU busy on [0, 5) and one
on [5, 10) gives [0, 5) and [5, 10), where the cluster was underused
throughout [0, 10).  Windows are maximal, adjacent ones merged (rule 4):
whatever the count below `below`, an underused piece that touches the last
window extends it.
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
    last_count = -1
    for start, end, count in segments:
        if count >= below:
            continue
        if windows and windows[-1].end == start and count == last_count:  # the mistake
            windows[-1] = Window(windows[-1].start, end)
        else:
            windows.append(Window(start, end))
        last_count = count
    return windows
