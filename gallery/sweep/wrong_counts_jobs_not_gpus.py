"""WRONG: busy time summed per interval, so a GPU shared by two jobs counts twice.

Utilization can then pass 100%.  A GPU is busy while any job runs on it.
"""

from collections.abc import Iterable
from fractions import Fraction

from variants.sweep import Busy, Window

FAILS = "sweep_utilization"


def utilization(busy: Iterable[Busy], *, gpus: int, horizon: Window, bucket: int) -> list[Fraction]:
    if gpus <= 0 or bucket <= 0 or horizon.end < horizon.start:
        raise ValueError("gpus and bucket must be > 0")
    spans = list(busy)
    for b in spans:
        if b.start < 0 or b.end < b.start or not 0 <= b.gpu < gpus:
            raise ValueError(f"bad interval {b}")
    shares = []
    for left in range(horizon.start, horizon.end, bucket):
        right = min(left + bucket, horizon.end)
        used = sum(max(0, min(b.end, right) - max(b.start, left)) for b in spans)  # the mistake
        shares.append(Fraction(used, gpus * (right - left)))
    return shares
