"""WRONG: a zero-length interval [t, t) splits an idle window at t.

Sorted ends-first, a zero-length interval's end comes before its own start:
the count dips and recovers at t.  Closing a window whenever the count moves,
instead of when it leaves zero, cuts [0, 10) into [0, 3) and [3, 10).
"""

from collections.abc import Iterable

from variants.sweep import Busy, Window

FAILS = "sweep_edges"


def idle_windows(busy: Iterable[Busy], *, horizon: Window) -> list[Window]:
    if horizon.end < horizon.start:
        raise ValueError(f"horizon ends before it starts: {horizon}")
    points = []
    for b in busy:
        if b.start < 0 or b.end < b.start or b.gpu < 0:
            raise ValueError(f"bad interval {b}")
        start, end = max(b.start, horizon.start), min(b.end, horizon.end)
        if start <= end:  # the mistake: zero-length intervals are kept
            points += [(start, 1, b.gpu), (end, 0, b.gpu)]
    points.sort(key=lambda p: (p[0], p[1]))  # ends (0) before starts (1)
    windows, count, since = [], 0, horizon.start
    open_on: dict[int, int] = {}
    for time, kind, gpu in points:
        if count == 0 and since < time:
            windows.append(Window(since, time))
        open_on[gpu] = open_on.get(gpu, 0) + (1 if kind else -1)
        count = sum(1 for n in open_on.values() if n > 0)
        since = time  # the mistake: every endpoint starts a new window
    if count == 0 and since < horizon.end:
        windows.append(Window(since, horizon.end))
    return windows
