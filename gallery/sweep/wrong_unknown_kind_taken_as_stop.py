"""WRONG: any event that is not a start is taken for a stop.

`if kind == "start": ... else: ...` pairs a "pause", a "STOP" or a typo as
if it were a stop: intervals end where nothing ended, or a stray event is
refused with a message about a missing start.  Check the kind of every
event, wherever it is in the log, before pairing.
"""

from collections.abc import Iterable

from variants.sweep import Busy, Event

FAILS = "sweep_events"


def intervals_from_events(events: Iterable[Event], *, until: int) -> list[Busy]:
    log = list(events)
    for event in log:
        if min(event.time, event.gpu) < 0 or event.time > until:
            raise ValueError(f"bad event {event}")
    opened: dict[tuple[int, str], int] = {}
    intervals = []
    for event in sorted(log, key=lambda e: e.time):
        key = (event.gpu, event.job)
        if event.kind == "start":
            if key in opened:
                raise ValueError(f"double start {event}")
            opened[key] = event.time
        elif key in opened:  # the mistake: any other kind closes the interval
            intervals.append(Busy(event.gpu, event.job, opened.pop(key), event.time))
        else:
            raise ValueError(f"stop without a start {event}")
    return intervals + [Busy(gpu, job, start, until) for (gpu, job), start in opened.items()]
