"""WRONG (in cost only): every interval compared with every other.

The answer is right, so no test fails; the cost is O(n**2) whatever the
output, and a million intervals take hours.  The sweep finds the same pairs
in O(n log n + pairs).  The kata's cost check (lines counted) catches it.
"""

from collections.abc import Iterable

from variants.sweep import Busy

FAILS = "sweep_scaling"


def overlapping_jobs(busy: Iterable[Busy]) -> list[tuple[str, str]]:
    spans = list(busy)
    for b in spans:
        if b.start < 0 or b.end < b.start or b.gpu < 0:
            raise ValueError(f"bad interval {b}")
    pairs = set()
    for i, x in enumerate(spans):
        for y in spans[i + 1 :]:  # the mistake: all pairs
            if x.job != y.job and max(x.start, y.start) < min(x.end, y.end):
                pairs.add((min(x.job, y.job), max(x.job, y.job)))
    return sorted(pairs)
