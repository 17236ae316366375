"""WRONG: `>=` where a new peak is taken, so the last window at the peak is reported.

The count is right, but each later window that reaches the same count
replaces the one before: the answer is when the peak last held, not when it
first did.  The first to reach the peak only gives way to a higher count
(`>`); a window going on at the same count is extended, not replaced.
"""

from collections import Counter
from collections.abc import Iterable

from variants.sweep import Busy, Peak, Window

FAILS = "sweep_peak"


def peak_concurrency(busy: Iterable[Busy], *, horizon: Window) -> Peak:
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
    peak: Peak | None = None
    for start, end, count in segments:
        if peak is not None and count == peak.busy and peak.window.end == start:
            peak = Peak(count, Window(peak.window.start, end))
        elif peak is None or count >= peak.busy:  # the mistake: a tie replaces the first
            peak = Peak(count, Window(start, end))
    return peak or Peak(0, horizon)
