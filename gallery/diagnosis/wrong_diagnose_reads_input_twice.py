"""WRONG: the heartbeats read twice, once to check them and once to use them.

A list can be read twice; an iterator or a generator gives nothing the
second time, so every rank of a streamed log looks never heard, and all of
them are stopped.  Read the input once (into a list, if two passes are
needed).
"""

from __future__ import annotations

from collections.abc import Iterable

from solution.detector import Stopped
from solution.diagnosis import Beat, Diagnosis, Hung

FAILS = "diagnosis_input"


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
    for b in beats:  # the mistake: a first pass, then the loop below reads it again
        if not 0 <= b.rank < world_size or b.received_at < start or b.progress < 0:
            raise ValueError(f"impossible heartbeat {b}")
    every = list(beats)
    stopped, hung = [], []
    for rank in range(world_size):
        mine = [b for b in every if b.rank == rank and b.received_at <= now]
        last = max((b.received_at for b in mine), default=None)
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
