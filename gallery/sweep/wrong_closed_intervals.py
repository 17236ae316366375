"""WRONG: intervals taken as closed, [start, end], busy at their end instant too.

Then a job ending at 5 and one starting at 5 overlap, and a GPU is busy one
tick longer than it was: idle windows shrink and touching jobs pair up.
"""

from collections.abc import Iterable

from variants.sweep import Busy, Window

FAILS = "sweep_convention"


def idle_windows(busy: Iterable[Busy], *, horizon: Window) -> list[Window]:
    busy_ticks: set[int] = set()
    for b in busy:
        if b.start < 0 or b.end < b.start:
            raise ValueError(f"bad interval {b}")
        if b.start < b.end:
            busy_ticks.update(range(b.start, b.end + 1))  # the mistake: end included
    windows: list[Window] = []
    for t in range(horizon.start, horizon.end):
        if t in busy_ticks:
            continue
        if windows and windows[-1].end == t:
            windows[-1] = Window(windows[-1].start, t + 1)
        else:
            windows.append(Window(t, t + 1))
    return windows


def overlapping_jobs(busy: Iterable[Busy]) -> list[tuple[str, str]]:
    spans = [b for b in busy if b.start < b.end]
    pairs = {
        (min(x.job, y.job), max(x.job, y.job))
        for x in spans
        for y in spans
        if x.job != y.job and max(x.start, y.start) <= min(x.end, y.end)  # the mistake: <=
    }
    return sorted(pairs)
