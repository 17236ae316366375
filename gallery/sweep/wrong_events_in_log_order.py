"""WRONG: events paired in the order the log lists them, not in time order.

Logs from many hosts are merged, buffered and retried: a stop can be written
before the start it closes.  Walked in log order, that stop finds no start
and the log is refused (or, worse, a start pairs with a later stop).  Sort
by time first; only ties keep the log's order.
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
    for event in log:  # the mistake: the log's order, taken for time order
        key = (event.gpu, event.job)
        if event.kind == "start":
            if key in opened:
                raise ValueError(f"double start {event}")
            opened[key] = event.time
        elif key in opened:
            if event.time < opened[key]:
                raise ValueError(f"stop before its start {event}")
            intervals.append(Busy(event.gpu, event.job, opened.pop(key), event.time))
        else:
            raise ValueError(f"stop without a start {event}")
    intervals += [Busy(gpu, job, start, until) for (gpu, job), start in opened.items()]
    return intervals
