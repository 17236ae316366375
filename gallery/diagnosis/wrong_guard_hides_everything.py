"""WRONG: once the guard trips, the whole report is hidden.

A rank that died an hour before the collector stalled is not part of the
mass silence; hiding it too turns one collector fault into a missed death.
Only the ranks of the window go into the fault.
"""

from __future__ import annotations

from collections.abc import Iterable
from fractions import Fraction

from solution.detector import Stopped
from solution.diagnosis import CollectorFault, Guarded

FAILS = "guard_safety"


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
        if len(group) > len(best):
            best = group
    if len(best) < 2 or len(best) <= share * world_size:
        return Guarded(report, None)
    times = [began(s) for s in best]
    fault = CollectorFault(tuple(sorted(s.rank for s in best)), (min(times), max(times)))
    return Guarded([], fault)  # the mistake: every rank hidden
