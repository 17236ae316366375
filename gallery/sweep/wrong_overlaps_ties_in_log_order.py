"""WRONG: endpoints sorted by time alone, so at a tie they stay in the log's order.

`sorted(points, key=time)` is stable: where one job ends as another starts,
the end comes first only if the log happened to list it first.  Touching
jobs then "overlap" or not depending on the order of the log, which the
answer must never depend on (rules 1 and 10).  Sort by (time, end before
start).
"""

from collections import Counter
from collections.abc import Iterable

from variants.sweep import Busy

FAILS = "sweep_convention"


def overlapping_jobs(busy: Iterable[Busy]) -> list[tuple[str, str]]:
    points = []
    for b in busy:
        if b.start < 0 or b.end < b.start or b.gpu < 0:
            raise ValueError(f"bad interval {b}")
        if b.start < b.end:
            points += [(b.start, 1, b.job), (b.end, 0, b.job)]
    active, pairs = Counter[str](), set()
    for _, kind, job in sorted(points, key=lambda p: p[0]):  # the mistake: time alone
        if kind and not active[job]:
            pairs |= {(min(job, other), max(job, other)) for other in active}
        active[job] += 1 if kind else -1
        if not active[job]:
            del active[job]
    return sorted(pairs)
