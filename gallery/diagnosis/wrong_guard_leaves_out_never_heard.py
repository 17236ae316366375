"""WRONG: the guard leaves the ranks never heard out of the grouping.

A rank never heard has been silent since `start` (rule 7), so its silence
is dated from `start` like any other: when the collector stalls from the
start, the ranks it never heard fell silent with the rest.  Grouping only
the ranks with a `last_heard` shrinks that group (no fault is seen where
one is, or a smaller group wins), and the never-heard ranks are reported as
deaths one by one while the others are hidden as a fault.
"""

from __future__ import annotations

from collections.abc import Iterable
from fractions import Fraction

from solution.detector import Stopped
from solution.diagnosis import CollectorFault, Guarded

FAILS = "mass_silence"


def guard_mass_silence(
    stopped: Iterable[Stopped],
    *,
    world_size: int,
    start: int,
    window: int,
    fraction: Fraction | float,
) -> Guarded:
    share, report = Fraction(fraction), list(stopped)
    ranks = [s.rank for s in report]
    if not 0 < share <= 1 or window < 0 or len(set(ranks)) < len(ranks):
        raise ValueError("impossible guard")
    if any(r < 0 or r >= world_size for r in ranks):
        raise ValueError("rank outside the world")

    def began(s: Stopped) -> int:
        return start if s.last_heard is None else s.last_heard

    heard = [s for s in report if s.last_heard is not None]  # the mistake: never heard left out
    best: list[Stopped] = []
    for first in sorted(heard, key=began):
        group = [s for s in heard if began(first) <= began(s) <= began(first) + window]
        if len(group) > len(best):
            best = group
    if len(best) < 2 or len(best) <= share * world_size:
        return Guarded(report, None)
    times = [began(s) for s in best]
    fault = CollectorFault(tuple(sorted(s.rank for s in best)), (min(times), max(times)))
    return Guarded([s for s in report if s not in best], fault)
