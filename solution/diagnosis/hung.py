"""Hung or dead: a rank that beats but makes no progress is hung, not stopped.

A heartbeat from a side thread keeps beating while the training loop is stuck
in a collective: liveness is not progress.  So heartbeats carry progress (a
training step, or better a collective sequence number), and the invariant
`diagnose` keeps, with every time the collector's receive clock:

    stopped  iff  now - last_heard > timeout                 (exactly `detect`)
    hung     iff  not stopped, heard, and now - since > stall_timeout

where ``since`` is when the rank's highest progress was first heard.  Hung
ranks come lowest progress first: in a group stuck in a collective, the rank
with the lowest sequence number is the one the others are waiting for (the
idea behind PyTorch's flight recorder).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import NamedTuple

from solution.detector import Heartbeat, Stopped, check_heartbeat, check_window, detect


class Beat(NamedTuple):
    """A heartbeat that carries the rank's progress."""

    rank: int
    sent_at: int  # the sender's clock: never compared
    received_at: int  # the collector's monotonic clock
    progress: int  # steps or collectives completed: >= 0, never decreasing while the rank lives


class Hung(NamedTuple):
    """A rank still beating whose progress has not advanced for too long."""

    rank: int
    progress: int  # the highest progress heard from it
    since: int  # received_at of the first heartbeat that carried that progress
    stalled: int  # now - since


class Diagnosis(NamedTuple):
    stopped: list[Stopped]  # as `detect` reports them
    hung: list[Hung]  # lowest progress first, then longest stalled, then rank


def diagnose(
    beats: Iterable[Beat],
    *,
    world_size: int,
    start: int,
    now: int,
    timeout: int,
    stall_timeout: int,
) -> Diagnosis:
    """The stopped ranks (as `detect`), and the hung: heard, not stopped, and with no
    progress for more than `stall_timeout` ticks as of `now`.

    A rank's progress is the highest heard by `now`; a heartbeat with a lower
    one (a late arrival) changes nothing.  Raises ValueError as `detect` does,
    and for a negative `stall_timeout` or progress.
    """
    check_window(world_size=world_size, start=start, now=now, timeout=timeout)
    if stall_timeout < 0:
        raise ValueError(f"stall_timeout must be >= 0, got {stall_timeout}")
    beats = list(beats)  # read once, used twice
    best: dict[int, tuple[int, int]] = {}  # rank -> (highest progress, first heard with it)
    for beat in beats:
        check_heartbeat(
            Heartbeat(beat.rank, beat.sent_at, beat.received_at), world_size=world_size, start=start
        )
        if beat.progress < 0:
            raise ValueError(f"progress must be >= 0: {beat}")
        if beat.received_at <= now:
            seen = best.get(beat.rank)
            if seen is None or (beat.progress, -beat.received_at) > (seen[0], -seen[1]):
                best[beat.rank] = (beat.progress, beat.received_at)
    stopped = detect(
        (Heartbeat(b.rank, b.sent_at, b.received_at) for b in beats),
        world_size=world_size,
        start=start,
        now=now,
        timeout=timeout,
    )
    silent = {s.rank for s in stopped}
    hung = [
        Hung(rank, progress, since, now - since)
        for rank, (progress, since) in best.items()
        if rank not in silent and now - since > stall_timeout
    ]
    hung.sort(key=lambda h: (h.progress, -h.stalled, h.rank))
    return Diagnosis(stopped, hung)
