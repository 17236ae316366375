"""From a log of start and stop events to busy intervals.

Each (gpu, job) alternates start, stop, start, ...  Events are taken in time
order, and at equal times in log order, so a restart logged as "stop, start"
at one instant closes one interval and opens the next, while "start, stop"
at one instant is a zero-length interval.  A start never stopped is busy
until `until`, when the log was cut.  Every inconsistency is an error naming
the event; nothing is dropped.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import NamedTuple

from variants.sweep.sweep import Busy

KINDS = ("start", "stop")


class Event(NamedTuple):
    """A job starting or stopping on a GPU at `time`."""

    time: int
    gpu: int
    job: str
    kind: str  # "start" or "stop"


class EventError(ValueError):
    """An inconsistent event; `index` is its position in the input."""

    def __init__(self, message: str, index: int) -> None:
        super().__init__(message)
        self.index = index


def intervals_from_events(events: Iterable[Event], *, until: int) -> list[Busy]:
    """The busy intervals the log describes, in order of their start.

    Raises ValueError for an unknown kind, a negative time or GPU, an event
    after `until`, a stop with no start before it (a "stop before its start"
    if the start comes later), and a start of a job already running on that GPU.
    """
    log = list(events)
    for index, event in enumerate(log):
        _check_event(event, index, until)
    opened: dict[tuple[int, str], int] = {}  # (gpu, job) -> start time
    intervals = []
    for index in sorted(range(len(log)), key=lambda i: log[i].time):  # stable: ties in log order
        event = log[index]
        key = (event.gpu, event.job)
        if event.kind == "start":
            if key in opened:
                raise EventError(
                    f"start of a job already running on GPU {event.gpu}: {event}", index
                )
            opened[key] = event.time
        elif key in opened:
            intervals.append(Busy(event.gpu, event.job, opened.pop(key), event.time))
        else:
            raise EventError(_orphan_stop(log, event), index)
    intervals += [Busy(gpu, job, start, until) for (gpu, job), start in opened.items()]
    return sorted(intervals, key=lambda busy: (busy.start, busy.gpu, busy.job))


def _check_event(event: Event, index: int, until: int) -> None:
    if event.kind not in KINDS:
        raise EventError(f"unknown kind {event.kind!r} (expected start or stop): {event}", index)
    if event.time < 0 or event.gpu < 0:
        raise EventError(f"negative time or GPU: {event}", index)
    if event.time > until:
        raise EventError(f"event after the end of the log ({until}): {event}", index)


def _orphan_stop(log: list[Event], stop: Event) -> str:
    later_start = any(
        e.kind == "start" and (e.gpu, e.job) == (stop.gpu, stop.job) and e.time > stop.time
        for e in log
    )
    problem = "stop before its start" if later_start else "stop without a start"
    return f"{problem}: {stop}"
