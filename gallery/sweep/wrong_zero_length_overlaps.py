"""WRONG: overlapping_jobs keeps a zero-length interval, so [t, t) overlaps the jobs busy at t.

The sweep of overlapping_jobs adds a job at its start and removes it at its
end, ends first at equal times.  A zero-length interval [t, t) kept in that
sweep has its end come before its own start: the end removes nothing, the
start pairs the job with every job busy at t and opens it for good, so it
pairs with every job that starts later too.  [t, t) is busy at no instant
and overlaps nothing (rule 2): leave it out, as the other queries do.
"""

from collections.abc import Iterable

from variants.sweep import Busy

FAILS = "sweep_edges"


def overlapping_jobs(busy: Iterable[Busy]) -> list[tuple[str, str]]:
    points = []
    for b in busy:
        if b.start < 0 or b.end < b.start or b.gpu < 0:
            raise ValueError(f"bad interval {b}")
        if b.start <= b.end:  # the mistake: [t, t) kept, its end sorted before its start
            points += [(b.start, 1, b.job), (b.end, 0, b.job)]
    points.sort(key=lambda point: point[:2])  # ends (0) before starts (1) at equal times
    active: dict[str, int] = {}  # job -> its intervals open now
    pairs: set[tuple[str, str]] = set()
    for _, kind, job in points:
        if kind:
            if job not in active:
                pairs |= {(min(job, other), max(job, other)) for other in active}
            active[job] = active.get(job, 0) + 1
        else:
            active[job] = active.get(job, 0) - 1
            if active[job] <= 0:  # the end of [t, t) closes nothing: it is not open yet
                del active[job]
    return sorted(pairs)
