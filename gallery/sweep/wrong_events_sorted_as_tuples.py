"""WRONG: the events sorted as whole tuples, so a tie in time is broken by GPU, job and kind.

`sorted(events)` looks like "in time order", but at equal times it orders by
GPU, then job, then kind, and "start" sorts before "stop".  A restart logged
as "stop, start" at one instant becomes "start, stop": a double start of a
running job, refused.  At equal times the log's own order decides: sort by
time alone (Python's sort is stable).
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
    for event in sorted(log):  # the mistake: ties broken by gpu, job, kind, not log order
        key = (event.gpu, event.job)
        if event.kind == "start":
            if key in opened:
                raise ValueError(f"double start {event}")
            opened[key] = event.time
        elif key in opened:
            intervals.append(Busy(event.gpu, event.job, opened.pop(key), event.time))
        else:
            raise ValueError(f"stop without a start {event}")
    intervals += [Busy(gpu, job, start, until) for (gpu, job), start in opened.items()]
    return intervals
