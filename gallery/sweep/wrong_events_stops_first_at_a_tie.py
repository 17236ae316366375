"""WRONG: at equal times, stops are taken before starts, as interval ends are.

"Ends before starts" is the rule for sweeping intervals; events are another
question.  Moving every stop ahead of the starts at its instant turns a
"start, stop" logged at one instant (a job that failed at once: the
zero-length interval, kept) into a stop with no start, and the log is
refused.  At equal times events are taken in log order.
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
    # the mistake: stops before starts at equal times, not the log's order
    for event in sorted(log, key=lambda e: (e.time, e.kind == "start")):
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
