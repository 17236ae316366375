"""WRONG: a rank's progress taken whenever it changes, lower as well as higher.

Read in one pass, a heartbeat whose progress differs from the rank's so far
becomes its progress and restarts its stall.  A late arrival (delayed in the
network, carrying an older step) then makes progress go back and hides a
hang: the rank's progress is the highest heard, and its stall runs from the
first heartbeat that carried it.
"""

from __future__ import annotations

from collections.abc import Iterable

from gallery.diagnosis.right_plain import Beat, Diagnosis, Hung, Stopped
from gallery.diagnosis.right_plain import PhiAccrual as PhiAccrual
from gallery.diagnosis.right_plain import guard_mass_silence as guard_mass_silence

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
    last: dict[int, int] = {}
    progress: dict[int, int] = {}
    since: dict[int, int] = {}
    for b in beats:
        if not 0 <= b.rank < world_size or b.received_at < start or b.progress < 0:
            raise ValueError(f"impossible heartbeat {b}")
        if b.received_at > now:
            continue
        last[b.rank] = max(last.get(b.rank, b.received_at), b.received_at)
        if b.rank not in progress or b.progress != progress[b.rank]:  # the mistake: != not >
            progress[b.rank], since[b.rank] = b.progress, b.received_at
        elif b.received_at < since[b.rank]:  # the same progress, heard earlier
            since[b.rank] = b.received_at
    stopped, hung = [], []
    for rank in range(world_size):
        silence = now - last.get(rank, start)
        if silence > timeout:
            stopped.append(Stopped(rank, last.get(rank), silence))
        elif rank in progress and now - since[rank] > stall_timeout:
            hung.append(Hung(rank, progress[rank], since[rank], now - since[rank]))
    stopped.sort(key=lambda s: (-s.silence, s.rank))
    hung.sort(key=lambda h: (h.progress, -h.stalled, h.rank))
    return Diagnosis(stopped, hung)
