"""WRONG: a stop paired with the last start of its job, whatever the GPU.

A job runs on several GPUs at once, each started and stopped on its own.
Keyed by job alone, its second GPU's start looks like a double start of a
running job, and a stop on another GPU than its start is taken as closing
it.  Pair by (GPU, job).
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
    opened: dict[str, tuple[int, int]] = {}  # job -> (gpu, start)
    intervals = []
    for event in sorted(log, key=lambda e: e.time):
        key = event.job  # the mistake: the job alone, not (gpu, job)
        if event.kind == "start":
            if key in opened:
                raise ValueError(f"double start {event}")
            opened[key] = (event.gpu, event.time)
        elif key in opened:
            gpu, start = opened.pop(key)
            intervals.append(Busy(gpu, event.job, start, event.time))
        else:
            raise ValueError(f"stop without a start {event}")
    intervals += [Busy(gpu, job, start, until) for job, (gpu, start) in opened.items()]
    return intervals
