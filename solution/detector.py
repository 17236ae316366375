"""Which ranks of a training job have stopped, judged by the collector's clock.

Every time here is an integer: a tick of the *collector's* monotonic clock,
stamped when a heartbeat was received.  The invariant `detect` keeps:

    a rank is reported  iff  now - last_heard > timeout

where ``last_heard`` is the greatest ``received_at <= now`` among the rank's
heartbeats, or ``start`` if it has none.  Three choices make that exact:

* The receive time, never ``sent_at``: the sender's clock is another host's,
  skewed by minutes or hours and free to jump.  Only the collector's own
  monotonic clock makes silences comparable across ranks.
* Strict ``>``: with ``timeout = k * interval`` a rank exactly ``timeout``
  silent has its k-th heartbeat *due*, not missed.  ``>=`` counts k-1 misses
  as k and breaks the false-positive arithmetic in `solution.threshold`.
* Integers: float seconds cannot tell a collector up for months whether a
  silence equals the timeout or exceeds it by a nanosecond.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import NamedTuple


class Heartbeat(NamedTuple):
    """One heartbeat as the collector logged it."""

    rank: int  # 0 <= rank < world_size
    sent_at: int  # the sender's own clock: skewed, may jump, never compared
    received_at: int  # the collector's monotonic clock


class Stopped(NamedTuple):
    """A rank silent for longer than the timeout."""

    rank: int
    last_heard: int | None  # received_at of its latest heartbeat; None if never heard
    silence: int  # now - last_heard, or now - start if never heard


def detect(
    heartbeats: Iterable[Heartbeat],
    *,
    world_size: int,
    start: int,
    now: int,
    timeout: int,
) -> list[Stopped]:
    """Return the ranks silent for more than `timeout` ticks as of `now`.

    The result holds exactly the ranks r in ``range(world_size)`` with
    ``silence > timeout``, where silence runs from the greatest ``received_at``
    of r's heartbeats received at or before `now` (from `start` if none).
    Heartbeats received after `now` are ignored, so a log can be replayed as
    of any time; ``sent_at`` is never read.  The list is ordered by silence,
    longest first (the first rank to stop leads), ties by rank ascending.

    Raises ValueError for a negative `world_size` or `timeout`, ``now < start``,
    or a heartbeat whose rank is out of range or that was received before `start`.
    """
    check_window(world_size=world_size, start=start, now=now, timeout=timeout)
    last_heard: dict[int, int] = {}
    for beat in heartbeats:
        check_heartbeat(beat, world_size=world_size, start=start)
        if beat.received_at <= now:  # as of `now`, later heartbeats have not arrived
            last_heard[beat.rank] = max(beat.received_at, last_heard.get(beat.rank, start))
    silent = (
        silent_rank(rank, last_heard.get(rank), start=start, now=now, timeout=timeout)
        for rank in range(world_size)
    )
    return by_silence(s for s in silent if s is not None)


def silent_rank(
    rank: int, last_heard: int | None, *, start: int, now: int, timeout: int
) -> Stopped | None:
    """Return `rank` as Stopped if its silence exceeds `timeout`, else None."""
    silence = now - (start if last_heard is None else last_heard)
    return Stopped(rank, last_heard, silence) if silence > timeout else None


def by_silence(stopped: Iterable[Stopped]) -> list[Stopped]:
    """Longest silence first (the first rank to stop), ties by rank."""
    return sorted(stopped, key=lambda s: (-s.silence, s.rank))


def check_window(*, world_size: int, start: int, now: int, timeout: int) -> None:
    """Raise ValueError unless the question itself makes sense."""
    if world_size < 0:
        raise ValueError(f"world_size must be >= 0, got {world_size}")
    if timeout < 0:
        raise ValueError(f"timeout must be >= 0, got {timeout}")
    if now < start:
        raise ValueError(f"now ({now}) is before start ({start})")


def check_heartbeat(beat: Heartbeat, *, world_size: int, start: int) -> None:
    """Raise ValueError for a heartbeat no rank of this job could have sent."""
    if not 0 <= beat.rank < world_size:
        raise ValueError(f"rank {beat.rank} is outside [0, {world_size}): {beat}")
    if beat.received_at < start:
        raise ValueError(f"heartbeat received at {beat.received_at}, before start {start}: {beat}")
