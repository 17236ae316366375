"""WRONG: the stall measured from the last heartbeat, not from when progress last advanced.

A rank hung in a collective whose side thread keeps beating is heard every
interval, so its "stall" never grows: it is never reported.  That is the
false negative this follow-up exists for.  The stall runs from the first
heartbeat that carried the current progress.
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
        silence = now - (start if last is None else last)
        if silence > timeout:
            stopped.append(Stopped(rank, last, silence))
        elif mine and last is not None and now - last > stall_timeout:  # the mistake
            top = max(b.progress for b in mine)
            hung.append(Hung(rank, top, last, now - last))
    stopped.sort(key=lambda s: (-s.silence, s.rank))
    hung.sort(key=lambda h: (h.progress, -h.stalled, h.rank))
    return Diagnosis(stopped, hung)
