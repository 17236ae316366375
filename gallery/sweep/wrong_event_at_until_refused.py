"""WRONG: an event at exactly `until` is refused as after the end of the log.

`until` is when the log was cut, and an event logged at that instant is in
the log: a stop there closes its interval, a start there is the interval
[until, until).  Only an event later than `until` is impossible.
"""

from collections.abc import Iterable

from variants.sweep import Busy, Event

FAILS = "sweep_events"


def intervals_from_events(events: Iterable[Event], *, until: int) -> list[Busy]:
    log = list(events)
    for event in log:
        if event.kind not in ("start", "stop") or min(event.time, event.gpu) < 0:
            raise ValueError(f"bad event {event}")
        if event.time >= until:  # the mistake: >=, where only > is after the log
            raise ValueError(f"event after the end of the log: {event}")
    opened: dict[tuple[int, str], int] = {}
    intervals = []
    for event in sorted(log, key=lambda e: e.time):
        key = (event.gpu, event.job)
        if event.kind == "start":
            if key in opened:
                raise ValueError(f"double start {event}")
            opened[key] = event.time
        elif key in opened:
            intervals.append(Busy(event.gpu, event.job, opened.pop(key), event.time))
        else:
            raise ValueError(f"stop without a start {event}")
    return intervals + [Busy(gpu, job, start, until) for (gpu, job), start in opened.items()]
