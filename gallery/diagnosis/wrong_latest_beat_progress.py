"""WRONG: the progress is the latest heartbeat's, not the highest heard.

A heartbeat delayed in the network arrives after a newer one, carrying an
older progress: taken as current, it makes progress go back and the stall
restart from its arrival.  The highest progress heard is the rank's.
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
        elif mine:
            mine.sort(key=lambda b: b.received_at)
            top = mine[-1].progress  # the mistake: the latest arrival's progress is current
            since = mine[-1].received_at
            for b in reversed(mine):  # back to where that progress began, in arrival order
                if b.progress != top:
                    break
                since = b.received_at
            if now - since > stall_timeout:
                hung.append(Hung(rank, top, since, now - since))
    stopped.sort(key=lambda s: (-s.silence, s.rank))
    hung.sort(key=lambda h: (h.progress, -h.stalled, h.rank))
    return Diagnosis(stopped, hung)
