"""WRONG: an empty log refused, because the latest event is found with max().

`max(e.time for e in log) > until` checks every event against the end of
the log in one line, but max() of nothing raises ValueError: an empty log (a
quiet night, or a window with no jobs) is refused instead of giving no
intervals.  Check each event, or give max() a default.
"""

from collections.abc import Iterable

from variants.sweep import Busy, Event

FAILS = "sweep_events"


def intervals_from_events(events: Iterable[Event], *, until: int) -> list[Busy]:
    log = list(events)
    if max(e.time for e in log) > until:  # the mistake: max() of an empty log raises
        raise ValueError(f"an event after the end of the log ({until})")
    for event in log:
        if event.kind not in ("start", "stop"):
            raise ValueError(f"unknown kind of event {event}")
        if event.time < 0 or event.gpu < 0:
            raise ValueError(f"negative time or GPU {event}")
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
    intervals += [Busy(gpu, job, start, until) for (gpu, job), start in opened.items()]
    return intervals
