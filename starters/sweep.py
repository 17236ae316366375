"""Sweep-line utilization kata: when was the cluster idle, how busy was it, which jobs overlapped?

The kata's command line copies this file and gives it to you a step at a time:

    python -m kata start sweep   # my_sweep.py, and step 1
    python -m kata check   # the steps written so far, then the next
    python -m kata hint    # stuck? a hint (three to a step)

(or, all at once: python -m pytest --impl my_sweep.py --rubric).

Each function is scored on its own; leave one unwritten and its tests are
reported as not attempted.  Standard library only.  The full contract, with
the reasons behind each rule, is variants/sweep/README.md.

The conventions every function shares:
- Times are integers.  Intervals are half-open, [start, end): touching
  intervals neither overlap nor leave a gap; [t, t) is busy at no instant.
- At equal times, ends come before starts.
- A GPU is busy while at least one interval on it is open (two jobs sharing a
  GPU count it once).
- The input is any iterable (a list, an iterator), read once; results do not
  depend on its order.  Answers are lists.
- Every function raises ValueError for an interval that ends before it starts
  or has a negative time or GPU.
"""

from __future__ import annotations

from collections.abc import Iterable
from fractions import Fraction
from typing import NamedTuple


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


class Event(NamedTuple):
    """A job starting or stopping on a GPU at `time`."""

    time: int
    gpu: int
    job: str
    kind: str  # "start" or "stop"


def intervals_from_events(events: Iterable[Event], *, until: int) -> list[Busy]:
    """The busy intervals the log describes (any order).

    Take events in time order, and at equal times in log order: "stop, start"
    at one instant is a restart (two touching intervals), "start, stop" is the
    zero-length interval [t, t), which is kept.  A start never stopped is busy
    until `until`.  Raise ValueError for a stop without a start, a stop before
    its start, a start of a job already running on that GPU, a negative time
    or GPU, an unknown kind (anywhere in the log), or an event after `until`
    (an event at `until` is in the log).
    """
    raise NotImplementedError("intervals_from_events")


def idle_windows(busy: Iterable[Busy], *, horizon: Window) -> list[Window]:
    """The maximal windows within `horizon` when no GPU was busy, in time order."""
    raise NotImplementedError("idle_windows")


def underused_windows(busy: Iterable[Busy], *, horizon: Window, below: int) -> list[Window]:
    """The maximal windows within `horizon` when fewer than `below` GPUs were busy."""
    raise NotImplementedError("underused_windows")


def utilization(busy: Iterable[Busy], *, gpus: int, horizon: Window, bucket: int) -> list[Fraction]:
    """Busy GPU-time / (gpus x bucket width) for each bucket of `horizon`, exactly.

    Bucket i is [horizon.start + i*bucket, horizon.start + (i+1)*bucket), cut at
    horizon.end (a shorter last bucket is divided by its own width).  Raise
    ValueError for a GPU outside [0, gpus), gpus <= 0 or bucket <= 0.
    """
    raise NotImplementedError("utilization")


def overlapping_jobs(busy: Iterable[Busy]) -> list[tuple[str, str]]:
    """Every pair (a, b), a < b, of jobs busy at a common instant, once each, sorted.

    In O(n log n + pairs): never compare every interval with every other.
    """
    raise NotImplementedError("overlapping_jobs")


def peak_concurrency(busy: Iterable[Busy], *, horizon: Window) -> Peak:
    """The most GPUs busy at once within `horizon`, and the first maximal window of it.

    Nothing busy: Peak(0, horizon).
    """
    raise NotImplementedError("peak_concurrency")
