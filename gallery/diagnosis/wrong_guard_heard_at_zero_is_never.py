"""WRONG: a silence that began at tick 0 dated from `start`, as if the rank were never heard.

`s.last_heard or start` is `start` for a last receipt at 0; with a negative
`start` (a clock counts from anywhere) the rank's silence is dated too early,
and it falls out of the group that fell silent with it.  Test `is None`.
"""

from __future__ import annotations

from collections.abc import Iterable
from fractions import Fraction

from gallery.diagnosis.right_plain import (
    CollectorFault,
    Guarded,
    Stopped,
)

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
        return s.last_heard or start  # the mistake: 0 is taken for "never heard"

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
