"""WRONG: a float fraction not at its exact value (read as a decimal, or multiplied in floats).

The float 0.3 is a little less than 3/10: three ranks of ten are more than
0.3 * 10 at its binary value, but not more than 3/10 (its decimal reading),
nor than 3.0000000000000004 (the product rounded in floats).  The same stall
is a fault or not depending on how the caller spelled the fraction.  Take a
float at its exact value: `Fraction(fraction) * world_size`.
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
    share, report = Fraction(str(fraction)), list(stopped)  # the mistake
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
    return Guarded([s for s in report if s not in best], fault)
