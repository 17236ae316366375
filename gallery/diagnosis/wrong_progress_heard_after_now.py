"""WRONG: a rank's progress read from every heartbeat in the log, those received after `now` too.

Replayed as of `now`, a log holds heartbeats the collector had not received
yet; their progress is the future.  A rank stuck at `now` looks as if it had
moved on (the later beat's progress), and is not reported hung.  Only what
was received by `now` counts, as in `detect`.
"""

from __future__ import annotations

from collections.abc import Iterable

from solution.detector import Stopped
from solution.diagnosis import Beat, Diagnosis, Hung

FAILS = "hung"


def diagnose(
    beats: Iterable[Beat],
    *,
    world_size: int,
    start: int,
    now: int,
    timeout: int,
    stall_timeout: int,
) -> Diagnosis:
    if world_size < 0 or timeout < 0 or stall_timeout < 0 or now < start:
        raise ValueError("impossible window")
    every = list(beats)
    for b in every:
        if not 0 <= b.rank < world_size or b.received_at < start or b.progress < 0:
            raise ValueError(f"impossible heartbeat {b}")
    stopped, hung = [], []
    for rank in range(world_size):
        mine = [b for b in every if b.rank == rank and b.received_at <= now]
        last = max((b.received_at for b in mine), default=None)
        mine = [b for b in every if b.rank == rank]  # the mistake: progress heard after now too
        silence = now - (start if last is None else last)
        if silence > timeout:
            stopped.append(Stopped(rank, last, silence))
        elif mine:
            top = max(b.progress for b in mine)
            since = min(b.received_at for b in mine if b.progress == top)
            if now - since > stall_timeout:
                hung.append(Hung(rank, top, since, now - since))
    stopped.sort(key=lambda s: (-s.silence, s.rank))
    hung.sort(key=lambda h: (h.progress, -h.stalled, h.rank))
    return Diagnosis(stopped, hung)
