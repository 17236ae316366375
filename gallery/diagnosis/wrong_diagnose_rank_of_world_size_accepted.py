"""WRONG: a heartbeat from rank world_size accepted: the range check one too wide.

Ranks run from 0 to world_size - 1.  `rank <= world_size` lets a rank that is
not in the job through, where it is silently dropped (no rank of the world
is that one): a heartbeat of a misconfigured job, or of the wrong job, goes
unnoticed.  Refuse it, as `detect` does.
"""

from __future__ import annotations

from collections.abc import Iterable

from gallery.diagnosis.right_plain import Beat, Diagnosis, Hung, Stopped
from gallery.diagnosis.right_plain import PhiAccrual as PhiAccrual
from gallery.diagnosis.right_plain import guard_mass_silence as guard_mass_silence

FAILS = "diagnosis_validation"


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
        if not 0 <= b.rank <= world_size or b.received_at < start or b.progress < 0:
            raise ValueError(f"impossible heartbeat {b}")  # the mistake: <= world_size
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
