"""WRONG: a job still running when the log was cut is dropped.

Its start has no stop, so the pairing loop never emits it: the longest jobs,
the ones still running, vanish from utilization.  It is busy until `until`.
"""

from collections.abc import Iterable

from variants.sweep import Busy, Event

FAILS = "sweep_events"


def intervals_from_events(events: Iterable[Event], *, until: int) -> list[Busy]:
    log = list(events)
    opened: dict[tuple[int, str], int] = {}
    intervals = []
    for event in sorted(log, key=lambda e: e.time):
        if (
            event.kind not in ("start", "stop")
            or min(event.time, event.gpu) < 0
            or event.time > until
        ):
            raise ValueError(f"bad event {event}")
        key = (event.gpu, event.job)
        if event.kind == "start":
            if key in opened:
                raise ValueError(f"double start {event}")
            opened[key] = event.time
        elif key in opened:
            intervals.append(Busy(event.gpu, event.job, opened.pop(key), event.time))
        else:
            raise ValueError(f"stop without a start {event}")
    return intervals  # the mistake: whatever is still in `opened` is lost
