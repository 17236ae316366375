"""WRONG: a pair of jobs that overlap in two periods listed twice.

The sweep adds a pair whenever a job starts while the other runs, into a
list: jobs a and b that overlap on [0, 5) and again on [10, 15) come out as
[("a", "b"), ("a", "b")].  The question is which jobs overlapped, not how
often: each pair once, sorted (rule 6).  Collect the pairs in a set, then
sort it.
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
    active, pairs = Counter[str](), []
    for _, kind, job in sorted(points):
        if kind and not active[job]:
            pairs += [(min(job, other), max(job, other)) for other in active]  # the mistake
        active[job] += 1 if kind else -1
        if not active[job]:
            del active[job]
    return sorted(pairs)
