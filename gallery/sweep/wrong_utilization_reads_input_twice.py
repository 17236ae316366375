"""WRONG: utilization reads its intervals twice, once to check the GPUs and once to count.

Given an iterator (a log streamed from a file), the first pass, which checks
that every GPU is in [0, gpus), exhausts it, and the pass that counts the
busy time sees nothing: every bucket comes out 0, the cluster idle all day.
The input is any iterable, read once (rule 10): check each interval as it
is read, or copy the input into a list first.
"""

from collections import Counter
from collections.abc import Iterable
from fractions import Fraction

from variants.sweep import Busy, Window

FAILS = "sweep_input"


def utilization(busy: Iterable[Busy], *, gpus: int, horizon: Window, bucket: int) -> list[Fraction]:
    if gpus <= 0 or bucket <= 0:
        raise ValueError("gpus and bucket must be > 0")
    if horizon.end < horizon.start:
        raise ValueError(f"horizon ends before it starts: {horizon}")
    for b in busy:  # the first pass
        if b.gpu >= gpus:
            raise ValueError(f"GPU {b.gpu} is outside [0, {gpus})")
    points = []
    for b in busy:  # the mistake: a second pass over what may be an exhausted iterator
        if b.start < 0 or b.end < b.start or b.gpu < 0:
            raise ValueError(f"bad interval {b}")
        start, end = max(b.start, horizon.start), min(b.end, horizon.end)
        if start < end:
            points += [(start, 1, b.gpu), (end, 0, b.gpu)]
    points.sort()  # ends (0) before starts (1) at equal times
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
