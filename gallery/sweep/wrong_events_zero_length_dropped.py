"""WRONG: a "start, stop" logged at one instant dropped, not kept as [t, t).

A job that failed at once (its stop logged right after its start, at the
same time) left a record: the zero-length interval [t, t).  Skipping an
interval whose end equals its start loses the job from the log's answer,
though it ran.  Rule 8: "start, stop" at one instant is the zero-length
interval, kept; it is busy at no instant, and the queries know it (rule 2).
"""

from collections.abc import Iterable

from variants.sweep import Busy, Event

FAILS = "sweep_events"


def intervals_from_events(events: Iterable[Event], *, until: int) -> list[Busy]:
    log = list(events)
    for event in log:
        if event.kind not in ("start", "stop"):
            raise ValueError(f"unknown kind of event {event}")
        if event.time < 0 or event.gpu < 0 or event.time > until:
            raise ValueError(f"event out of range {event}")
    opened: dict[tuple[int, str], int] = {}
    intervals = []
    for event in sorted(log, key=lambda e: e.time):  # stable: log order at equal times
        key = (event.gpu, event.job)
        if event.kind == "start":
            if key in opened:
                raise ValueError(f"double start {event}")
            opened[key] = event.time
        elif key in opened:
            start = opened.pop(key)
            if start < event.time:  # the mistake: [t, t) dropped
                intervals.append(Busy(event.gpu, event.job, start, event.time))
        else:
            raise ValueError(f"stop without a start {event}")
    intervals += [Busy(gpu, job, start, until) for (gpu, job), start in opened.items()]
    return intervals
