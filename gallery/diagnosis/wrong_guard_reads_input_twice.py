"""WRONG: the guard reads its report twice, once for the ranks and once to keep it.

The detector's report may be a generator (a pipeline of stages): the first
pass takes the ranks, the second finds nothing, so the guard sees no
silence at all, and a collector fault goes unreported as ranks stopped.
Read the input once, into a list, then use the list.
"""

from __future__ import annotations

from collections.abc import Iterable
from fractions import Fraction

from gallery.diagnosis.right_plain import CollectorFault, Guarded, Stopped
from gallery.diagnosis.right_plain import PhiAccrual as PhiAccrual
from gallery.diagnosis.right_plain import diagnose as diagnose

FAILS = "diagnosis_input"


def guard_mass_silence(
    stopped: Iterable[Stopped],
    *,
    world_size: int,
    start: int,
    window: int,
    fraction: Fraction | float,
) -> Guarded:
    share = Fraction(fraction)
    ranks = [s.rank for s in stopped]  # the mistake: a first pass, then list() reads it again
    report = list(stopped)
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
    return Guarded([s for s in report if s not in best], fault)
