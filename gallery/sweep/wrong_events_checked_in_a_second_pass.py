"""WRONG: the events paired first, then checked in a second pass over the input.

Given a list, the second pass sees every event and refuses the bad ones.
Given an iterator (a log streamed from a file), pairing has exhausted it:
the checks see nothing, and an unknown kind or a negative GPU goes through.
Read the input once: check each event as it is read, or copy it into a list.
"""

from collections.abc import Iterable

from variants.sweep import Busy, Event

FAILS = "sweep_events"


def intervals_from_events(events: Iterable[Event], *, until: int) -> list[Busy]:
    opened: dict[tuple[int, str], int] = {}
    intervals = []
    for event in sorted(events, key=lambda e: e.time):
        key = (event.gpu, event.job)
        if event.kind == "start":
            if key in opened:
                raise ValueError(f"double start {event}")
            opened[key] = event.time
        elif event.kind == "stop":
            if key not in opened:
                raise ValueError(f"stop without a start {event}")
            intervals.append(Busy(event.gpu, event.job, opened.pop(key), event.time))
    intervals += [Busy(gpu, job, start, until) for (gpu, job), start in opened.items()]
    for event in events:  # the mistake: a second pass over what may be an exhausted iterator
        if event.kind not in ("start", "stop"):
            raise ValueError(f"unknown kind of event {event}")
        if event.time < 0 or event.gpu < 0 or event.time > until:
            raise ValueError(f"event out of range {event}")
    return intervals
