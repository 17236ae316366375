"""WRONG: each pair recorded as (the job already running, the job starting).

A pair is the two jobs, in order: (a, b) with a < b (rule 6).  Recorded in
the order the sweep meets them, the same two jobs come out as ("b", "a")
when b was running first, and as both pairs when they meet twice.  Put the
smaller name first.
"""

from collections import Counter
from collections.abc import Iterable

from variants.sweep import Busy

FAILS = "sweep_overlaps"


def overlapping_jobs(busy: Iterable[Busy]) -> list[tuple[str, str]]:
    points = []
    for b in busy:
        if b.start < 0 or b.end < b.start or b.gpu < 0:
            raise ValueError(f"bad interval {b}")
        if b.start < b.end:
            points += [(b.start, 1, b.job), (b.end, 0, b.job)]
    active, pairs = Counter[str](), set()
    for _, kind, job in sorted(points):
        if kind and not active[job]:
            pairs |= {(other, job) for other in active if other != job}  # the mistake
        active[job] += 1 if kind else -1
        if not active[job]:
            del active[job]
    return sorted(pairs)
