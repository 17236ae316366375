"""WRONG: a shorter last bucket divided by the full bucket width.

With a horizon of 90 and buckets of 60, the last bucket is [60, 90): 30
ticks.  Dividing its busy GPU-time by gpus x 60 instead of gpus x 30 halves
its utilization, so a cluster busy throughout reads 1/2 at the end.  Each
bucket is cut at the horizon's end and divided by its own width (rule 5).
"""

from collections import defaultdict
from collections.abc import Iterable
from fractions import Fraction

from variants.sweep import Busy, Window

FAILS = "sweep_utilization"


def utilization(busy: Iterable[Busy], *, gpus: int, horizon: Window, bucket: int) -> list[Fraction]:
    if gpus <= 0 or bucket <= 0 or horizon.end < horizon.start:
        raise ValueError("gpus and bucket must be > 0")
    on: dict[int, list[tuple[int, int]]] = defaultdict(list)
    for b in busy:
        if b.start < 0 or b.end < b.start or not 0 <= b.gpu < gpus:
            raise ValueError(f"bad interval {b}")
        if b.start < b.end:
            on[b.gpu].append((b.start, b.end))
    merged: list[tuple[int, int]] = []  # each GPU's busy time, its overlaps merged
    for spans in on.values():
        spans.sort()
        lo, hi = spans[0]
        for start, end in spans[1:]:
            if start > hi:
                merged.append((lo, hi))
                lo = start
            hi = max(hi, end)
        merged.append((lo, hi))
    shares = []
    for left in range(horizon.start, horizon.end, bucket):
        right = min(left + bucket, horizon.end)
        used = sum(max(0, min(end, right) - max(start, left)) for start, end in merged)
        shares.append(Fraction(used, gpus * bucket))  # the mistake: not right - left
    return shares
