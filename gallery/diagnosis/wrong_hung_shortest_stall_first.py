"""WRONG: hung ranks of equal progress ordered by the shortest stall first.

Progress first is right, but within one progress the ties go by the longest
stall (rule 4): in a group stuck in the same collective, the ranks that
entered it first have waited longest, and they lead the list.  Sorting by
`stalled` ascending puts the latest arrival first, and the order no longer
says who has waited longest.
"""

from __future__ import annotations

from collections.abc import Iterable

from solution.detector import Stopped
from solution.diagnosis import Beat, Diagnosis, Hung

FAILS = "hung_order"


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
            top = max(b.progress for b in mine)
            since = min(b.received_at for b in mine if b.progress == top)
            if now - since > stall_timeout:
                hung.append(Hung(rank, top, since, now - since))
    stopped.sort(key=lambda s: (-s.silence, s.rank))
    hung.sort(key=lambda h: (h.progress, h.stalled, h.rank))  # the mistake: shortest stall first
    return Diagnosis(stopped, hung)
