"""Mass silence: many ranks falling silent together is a collector fault, not many deaths.

When the collector stalls (a GC pause, a full disk, a saturated network
interface) it stops reading, and every rank looks silent at once.  Ranks do
not die together by the hundred; collectors and switches fail.  So, as
Kubernetes' node controller stops evicting when a whole zone goes dark, the
guard takes a detector's report and, when more than a fraction of the world
fell silent within one window of time, reports one suspected collector
fault in place of those ranks.  The invariant:

    the fault holds the ranks whose silence began within `window` ticks of each
    other (the densest such group, the earliest if several), when there are
    more than ``fraction * world_size`` of them and at least two;

so a single death is never hidden, and a death at another time than the mass
silence is still reported.  A rank that dies during a collector stall is
hidden with the others until they recover; then it stands alone.
"""

from __future__ import annotations

from collections.abc import Iterable
from fractions import Fraction
from typing import NamedTuple

from solution.detector import Stopped


class CollectorFault(NamedTuple):
    ranks: tuple[int, ...]  # ascending
    fell_silent: tuple[int, int]  # the earliest and latest start of their silences


class Guarded(NamedTuple):
    stopped: list[Stopped]  # the rest of the report, in its order
    fault: CollectorFault | None


def guard_mass_silence(
    stopped: Iterable[Stopped],
    *,
    world_size: int,
    start: int,
    window: int,
    fraction: Fraction | float,
) -> Guarded:
    """Split a report into the ranks it still reports and a suspected collector fault.

    A rank's silence began at its ``last_heard``, or at `start` if never heard.
    ValueError for a `fraction` outside (0, 1], a negative `window`, a rank
    outside ``range(world_size)`` or reported twice.
    """
    share = Fraction(fraction)
    if not 0 < share <= 1:
        raise ValueError(f"fraction must be in (0, 1], got {fraction}")
    if window < 0:
        raise ValueError(f"window must be >= 0, got {window}")
    report = list(stopped)
    ranks = [s.rank for s in report]
    if any(not 0 <= r < world_size for r in ranks) or len(set(ranks)) != len(ranks):
        raise ValueError(f"ranks must be distinct and in [0, {world_size}): {ranks}")
    onsets = sorted((start if s.last_heard is None else s.last_heard, s.rank) for s in report)
    best, first = 0, 0  # the densest window: its size and first index
    low = 0
    for high in range(len(onsets)):  # two pointers: onsets[low..high] within `window`
        while onsets[high][0] - onsets[low][0] > window:
            low += 1
        if high - low + 1 > best:
            best, first = high - low + 1, low
    if best < 2 or best <= share * world_size:
        return Guarded(report, None)
    group = onsets[first : first + best]
    hidden = {rank for _, rank in group}
    fault = CollectorFault(tuple(sorted(hidden)), (group[0][0], group[-1][0]))
    return Guarded([s for s in report if s.rank not in hidden], fault)
