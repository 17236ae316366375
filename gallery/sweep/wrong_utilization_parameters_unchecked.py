"""WRONG: gpus and bucket never checked, left for range() and Fraction to refuse.

range() does refuse a step of 0, and a share over 0 GPUs does fail, but not
as the contract's ValueError: Fraction(x, 0) raises ZeroDivisionError, and a
negative bucket makes range() empty, a silent answer of no buckets at all
(or an IndexError, depending on the log).  Check gpus > 0 and bucket > 0
first, whatever the log and the horizon.
"""

from collections import Counter
from collections.abc import Iterable
from fractions import Fraction

from variants.sweep import Busy, Window

FAILS = "sweep_validation"


def utilization(busy: Iterable[Busy], *, gpus: int, horizon: Window, bucket: int) -> list[Fraction]:
    # the mistake: no check of gpus > 0 and bucket > 0
    if horizon.end < horizon.start:
        raise ValueError(f"horizon ends before it starts: {horizon}")
    points = []
    for b in busy:
        if b.start < 0 or b.end < b.start or b.gpu < 0:
            raise ValueError(f"bad interval {b}")
        if b.gpu >= gpus:
            raise ValueError(f"GPU {b.gpu} is outside [0, {gpus})")
        start, end = max(b.start, horizon.start), min(b.end, horizon.end)
        if start < end:
            points += [(start, 1, b.gpu), (end, 0, b.gpu)]
    points.sort()
    edges = [*range(horizon.start, horizon.end, bucket), horizon.end]
    used = [0] * (len(edges) - 1)
    open_on, since = Counter[int](), horizon.start
    for time, kind, gpu in points:
        index = (since - horizon.start) // bucket
        while since < time:  # the segment [since, time), cut at bucket edges
            cut = min(time, edges[index + 1])
            used[index] += len(open_on) * (cut - since)
            since, index = cut, index + 1
        open_on[gpu] += 1 if kind else -1
        if not open_on[gpu]:
            del open_on[gpu]
    return [
        Fraction(gpu_time, gpus * (right - left))
        for gpu_time, left, right in zip(used, edges, edges[1:], strict=False)
    ]
