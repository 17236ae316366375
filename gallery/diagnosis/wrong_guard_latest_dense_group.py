"""WRONG: of several equally dense groups, the last one taken as the fault.

Two groups as dense, at different times: the contract takes the earliest.
Keeping the last one scanned (`>=`) hides the later group and reports the
earlier ranks one by one, so the verdict depends on the scan's direction.
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

    best: list[Stopped] = []
    for first in sorted(report, key=began):
        group = [s for s in report if began(first) <= began(s) <= began(first) + window]
        if len(group) >= len(best):  # the mistake: a later group as dense replaces it
            best = group
    if len(best) < 2 or len(best) <= share * world_size:
        return Guarded(report, None)
    times = [began(s) for s in best]
    fault = CollectorFault(tuple(sorted(s.rank for s in best)), (min(times), max(times)))
    return Guarded([s for s in report if s not in best], fault)
