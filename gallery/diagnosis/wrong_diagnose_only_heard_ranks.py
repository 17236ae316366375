"""WRONG: only the ranks heard from are diagnosed, so a rank never heard is never stopped.

Progress can only be read from ranks that have sent something, and looping
over the heartbeats' ranks makes that natural.  But `stopped` is detect's
report: a rank never heard is silent since start, and once that silence
passes the timeout it is stopped; it is the rank that died before its first
heartbeat.  Walk every rank of the world.
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
    heard = sorted({b.rank for b in every if b.received_at <= now})
    for rank in heard:  # the mistake: the ranks never heard are never looked at
        mine = [b for b in every if b.rank == rank and b.received_at <= now]
        last = max(b.received_at for b in mine)
        silence = now - last
        if silence > timeout:
            stopped.append(Stopped(rank, last, silence))
            continue
        top = max(b.progress for b in mine)
        since = min(b.received_at for b in mine if b.progress == top)
        if now - since > stall_timeout:
            hung.append(Hung(rank, top, since, now - since))
    stopped.sort(key=lambda s: (-s.silence, s.rank))
    hung.sort(key=lambda h: (h.progress, -h.stalled, h.rank))
    return Diagnosis(stopped, hung)
