"""WRONG: intervals taken as closed, [start, end], busy at their end instant too.

Then a job ending at 5 and one starting at 5 overlap, and a GPU is busy one
tick longer than it was: idle windows shrink and touching jobs pair up.
Everything else is the standard sweep.
"""

from collections import Counter
from collections.abc import Iterable

from variants.sweep import Busy, Window

FAILS = "sweep_convention"


def _closed(busy: Iterable[Busy]) -> list[tuple[int, int, Busy]]:
    """Endpoints (time, +1 start / -1 end, interval), each end one tick late."""
    points = []
    for b in busy:
        if b.start < 0 or b.end < b.start or b.gpu < 0:
            raise ValueError(f"bad interval {b}")
        if b.start < b.end:
            points += [(b.start, 1, b), (b.end + 1, -1, b)]  # the mistake: busy at its end
    return sorted(points, key=lambda p: (p[0], p[1]))


def idle_windows(busy: Iterable[Busy], *, horizon: Window) -> list[Window]:
    if horizon.end < horizon.start:
        raise ValueError(f"horizon ends before it starts: {horizon}")
    windows: list[Window] = []
    open_on, since = Counter[int](), horizon.start
    for time, step, b in _closed(busy):
        if not open_on and since < min(time, horizon.end):
            windows.append(Window(since, min(time, horizon.end)))
        open_on[b.gpu] += step
        if not open_on[b.gpu]:
            del open_on[b.gpu]
        since = max(since, min(time, horizon.end))
    if not open_on and since < horizon.end:
        windows.append(Window(since, horizon.end))
    merged: list[Window] = []
    for window in windows:
        if merged and merged[-1].end == window.start:
            merged[-1] = Window(merged[-1].start, window.end)
        else:
            merged.append(window)
    return merged


def overlapping_jobs(busy: Iterable[Busy]) -> list[tuple[str, str]]:
    active, pairs = Counter[str](), set()
    for _, step, b in _closed(busy):
        if step == 1 and not active[b.job]:
            pairs |= {(min(b.job, j), max(b.job, j)) for j in active if j != b.job}
        active[b.job] += step
        if not active[b.job]:
            del active[b.job]
    return sorted(pairs)
