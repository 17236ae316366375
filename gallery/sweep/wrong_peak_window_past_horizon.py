"""WRONG: the peak's window is not cut at the horizon's end.

The count is right, but when the peak lasts until the horizon ends, the
window reported runs on to where the busy intervals end, outside the
question that was asked.  Clip every interval to the horizon first.
"""

from collections import Counter
from collections.abc import Iterable

from variants.sweep import Busy, Peak, Window

FAILS = "sweep_edges"


def peak_concurrency(busy: Iterable[Busy], *, horizon: Window) -> Peak:
    if horizon.end < horizon.start:
        raise ValueError(f"horizon ends before it starts: {horizon}")
    points = []
    for b in busy:
        if b.start < 0 or b.end < b.start or b.gpu < 0:
            raise ValueError(f"bad interval {b}")
        start = max(b.start, horizon.start)
        if start < min(b.end, horizon.end):
            points += [(start, 1, b.gpu), (b.end, 0, b.gpu)]  # the mistake: end not clipped
    points.sort()
    best, open_on, since = Peak(0, horizon), Counter[int](), horizon.start
    for time, kind, gpu in points:
        if time > since:
            count = len(open_on)
            if count > best.busy:
                best = Peak(count, Window(since, time))
            elif count and count == best.busy and best.window.end == since:
                best = Peak(count, Window(best.window.start, time))
            since = time
        open_on[gpu] += 1 if kind else -1
        if not open_on[gpu]:
            del open_on[gpu]
    return best
