"""WRONG: the overlapping pairs returned as a set, not a sorted list.

The pairs are right, but a set has no order: the report changes from run to
run (string hashing is salted per process), and a caller cannot take the
first pair or compare two reports line by line.  Return sorted(pairs).
"""

from collections import Counter
from collections.abc import Iterable

from variants.sweep import Busy

FAILS = "sweep_overlaps"


def overlapping_jobs(busy: Iterable[Busy]) -> set[tuple[str, str]]:
    points = []
    for b in busy:
        if b.start < 0 or b.end < b.start or b.gpu < 0:
            raise ValueError(f"bad interval {b}")
        if b.start < b.end:
            points += [(b.start, 1, b.job), (b.end, 0, b.job)]
    active, pairs = Counter[str](), set()
    for _, kind, job in sorted(points):
        if kind and not active[job]:
            pairs |= {(min(job, other), max(job, other)) for other in active}
        active[job] += 1 if kind else -1
        if not active[job]:
            del active[job]
    return pairs  # the mistake: a set
