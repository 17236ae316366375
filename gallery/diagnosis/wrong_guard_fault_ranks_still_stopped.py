"""WRONG: the fault is reported, but its ranks are left in `stopped` too.

The guard finds the mass silence and names it as one CollectorFault, yet
returns the detector's report untouched: every rank of the stall is still
reported dead, and whoever acts on `stopped` restarts half the job for a
collector's pause.  The fault's ranks come out of `stopped`; the rest stay.
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
        if len(group) > len(best):
            best = group
    if len(best) < 2 or len(best) <= share * world_size:
        return Guarded(report, None)
    times = [began(s) for s in best]
    fault = CollectorFault(tuple(sorted(s.rank for s in best)), (min(times), max(times)))
    return Guarded(report, fault)  # the mistake: the fault's ranks are not taken out
