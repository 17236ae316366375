"""WRONG: utilization in floats, rounded to four places.

1/3 becomes 0.3333: the sum of the buckets no longer equals the busy time,
and two runs compared for equality disagree.  A ratio of integers is exact as
a Fraction.
"""

from collections.abc import Iterable

from variants.sweep import Busy, Window

FAILS = "sweep_utilization"


def utilization(busy: Iterable[Busy], *, gpus: int, horizon: Window, bucket: int) -> list[float]:
    if gpus <= 0 or bucket <= 0 or horizon.end < horizon.start:
        raise ValueError("gpus and bucket must be > 0")
    spans = list(busy)
    for b in spans:
        if b.start < 0 or b.end < b.start or not 0 <= b.gpu < gpus:
            raise ValueError(f"bad interval {b}")
    shares = []
    for left in range(horizon.start, horizon.end, bucket):
        right = min(left + bucket, horizon.end)
        used = 0
        for gpu in range(gpus):
            ticks: set[int] = set()
            for b in spans:
                if b.gpu == gpu:
                    ticks.update(range(max(b.start, left), min(b.end, right)))
            used += len(ticks)
        shares.append(round(used / (gpus * (right - left)), 4))  # the mistake
    return shares
