"""Cluster utilization by sweeping interval endpoints in time order.

Intervals are half-open, ``[start, end)``: touching intervals do not overlap
and leave no gap, and a zero-length interval is busy at no instant.  The
invariant of the sweep: endpoints are visited in time order, ends before
starts at equal times, so between two consecutive endpoint times the number
of busy GPUs is constant.  Every query reads those constant segments; the
sort is the only step costlier than linear.

A GPU is busy while at least one interval on it is open: two jobs sharing a
GPU at once count it once, so utilization never exceeds 1.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator
from fractions import Fraction
from itertools import pairwise
from typing import NamedTuple

END, START = 0, 1  # sort key: at equal times, ends come first


class Busy(NamedTuple):
    """A GPU busy with a job over [start, end)."""

    gpu: int
    job: str
    start: int
    end: int


class Window(NamedTuple):
    """The half-open time window [start, end)."""

    start: int
    end: int


class Peak(NamedTuple):
    """The most GPUs busy at once, and the first maximal window when that held."""

    busy: int
    window: Window


def segments(busy: Iterable[Busy], horizon: Window) -> Iterator[tuple[int, int, int]]:
    """(start, end, GPUs busy) for consecutive segments exactly covering `horizon`."""
    check_window(horizon)
    endpoints = []
    for interval in busy:
        check_interval(interval)
        start, end = max(interval.start, horizon.start), min(interval.end, horizon.end)
        if start < end:  # zero-length, or outside the horizon: busy at no instant
            endpoints += [(start, START, interval.gpu), (end, END, interval.gpu)]
    endpoints.sort()
    open_on = Counter[int]()  # gpu -> intervals open on it
    busy_gpus, since = 0, horizon.start
    for time, kind, gpu in endpoints:
        if time > since:
            yield since, time, busy_gpus
            since = time
        open_on[gpu] += 1 if kind == START else -1
        if open_on[gpu] == (1 if kind == START else 0):  # the GPU turned busy, or idle
            busy_gpus += 1 if kind == START else -1
    if since < horizon.end:
        yield since, horizon.end, busy_gpus


def underused_windows(busy: Iterable[Busy], *, horizon: Window, below: int) -> list[Window]:
    """The maximal windows within `horizon` when fewer than `below` GPUs were busy, in order."""
    windows: list[Window] = []
    for start, end, count in segments(busy, horizon):
        if count >= below:
            continue
        if windows and windows[-1].end == start:
            windows[-1] = Window(windows[-1].start, end)
        else:
            windows.append(Window(start, end))
    return windows


def idle_windows(busy: Iterable[Busy], *, horizon: Window) -> list[Window]:
    """The maximal windows within `horizon` when no GPU was busy, in order."""
    return underused_windows(busy, horizon=horizon, below=1)


def peak_concurrency(busy: Iterable[Busy], *, horizon: Window) -> Peak:
    """The most GPUs busy at once within `horizon`, and the first maximal window of it.

    An empty or idle horizon has a peak of 0 over the whole horizon.
    """
    peak: Peak | None = None
    for start, end, count in segments(busy, horizon):
        if peak is None or count > peak.busy:
            peak = Peak(count, Window(start, end))
        elif count == peak.busy and peak.window.end == start:  # the same window goes on
            peak = Peak(count, Window(peak.window.start, end))
    return peak or Peak(0, horizon)


def utilization(busy: Iterable[Busy], *, gpus: int, horizon: Window, bucket: int) -> list[Fraction]:
    """Busy GPU-time / (gpus x bucket width) for each bucket of `horizon`, exactly.

    Bucket i is [horizon.start + i*bucket, horizon.start + (i+1)*bucket), cut at
    horizon.end (the last may be shorter, and is divided by its own width).
    """
    if gpus <= 0 or bucket <= 0:
        raise ValueError(f"gpus and bucket must be > 0, got gpus={gpus}, bucket={bucket}")
    edges = [*range(horizon.start, horizon.end, bucket), horizon.end]
    gpu_time = [0] * (len(edges) - 1)
    for start, end, count in segments(_on_cluster(busy, gpus), horizon):
        index = (start - horizon.start) // bucket
        while start < end:  # a segment may cross bucket edges
            cut = min(end, edges[index + 1])
            gpu_time[index] += count * (cut - start)
            start, index = cut, index + 1
    widths = [right - left for left, right in pairwise(edges)]
    return [Fraction(used, gpus * width) for used, width in zip(gpu_time, widths, strict=True)]


def overlapping_jobs(busy: Iterable[Busy]) -> list[tuple[str, str]]:
    """Every pair (a, b), a < b, of jobs busy at a common instant, sorted.

    A job is active while any of its intervals is open.  When a job turns
    active, it overlaps exactly the jobs active then, so the cost is the sort
    plus one step per pair found: O(n log n + pairs), not O(n**2).
    """
    endpoints = []
    for interval in busy:
        check_interval(interval)
        if interval.start < interval.end:
            endpoints += [(interval.start, START, interval.job), (interval.end, END, interval.job)]
    endpoints.sort()
    open_intervals = Counter[str]()  # job -> its open intervals; a job is active while > 0
    pairs: set[tuple[str, str]] = set()
    for _, kind, job in endpoints:
        if kind == END:
            open_intervals[job] -= 1
            if not open_intervals[job]:
                del open_intervals[job]
            continue
        if job not in open_intervals:
            pairs.update((min(job, other), max(job, other)) for other in open_intervals)
        open_intervals[job] += 1
    return sorted(pairs)


def check_window(window: Window) -> None:
    if window.start > window.end:
        raise ValueError(f"window ends before it starts: {window}")


def check_interval(interval: Busy) -> None:
    if interval.start < 0 or interval.gpu < 0:
        raise ValueError(f"negative time or GPU: {interval}")
    if interval.end < interval.start:
        raise ValueError(f"interval ends before it starts: {interval}")


def _on_cluster(busy: Iterable[Busy], gpus: int) -> Iterator[Busy]:
    for interval in busy:
        if interval.gpu >= gpus:
            raise ValueError(f"GPU {interval.gpu} is outside [0, {gpus}): {interval}")
        yield interval
