"""WRONG: an early return when nothing is busy: no intervals, no idle windows.

Idle windows are read here as the gaps between the busy runs, and with no
busy run the loop has nothing to do, so `if not runs: return []`.  But a
cluster with nothing running was idle all along: the whole horizon is the
one idle window (and so for a log of zero-length intervals, or of intervals
outside the horizon).  Only an empty horizon has no window.
"""

from collections.abc import Iterable

from variants.sweep import Busy, Window

FAILS = "sweep_edges"


def idle_windows(busy: Iterable[Busy], *, horizon: Window) -> list[Window]:
    if horizon.end < horizon.start:
        raise ValueError(f"horizon ends before it starts: {horizon}")
    runs = []
    for b in busy:
        if b.start < 0 or b.end < b.start or b.gpu < 0:
            raise ValueError(f"bad interval {b}")
        start, end = max(b.start, horizon.start), min(b.end, horizon.end)
        if start < end:
            runs.append((start, end))
    if not runs:
        return []  # the mistake: nothing busy is idle throughout, not never idle
    windows, cursor = [], horizon.start
    for start, end in sorted(runs):
        if start > cursor:
            windows.append(Window(cursor, start))
        cursor = max(cursor, end)
    if cursor < horizon.end:
        windows.append(Window(cursor, horizon.end))
    return windows
