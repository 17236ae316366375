"""WRONG: a world of no ranks returns at once, so its heartbeats are never checked.

With world_size 0 there is nobody to report, but a heartbeat from rank 0 of
an empty world means the job or the log is not what the caller thinks: it
must be refused like any rank outside [0, world_size).
"""

from solution import Heartbeat, Stopped

FAILS = "validation"


def detect(
    heartbeats: list[Heartbeat], *, world_size: int, start: int, now: int, timeout: int
) -> list[Stopped]:
    if world_size == 0:
        return []  # the mistake: nothing else is checked
    if world_size < 0 or timeout < 0 or now < start:
        raise ValueError("bad window")
    last: dict[int, int] = {}
    for beat in heartbeats:
        if not 0 <= beat.rank < world_size or beat.received_at < start:
            raise ValueError(f"bad heartbeat {beat}")
        if beat.received_at <= now:
            last[beat.rank] = max(last.get(beat.rank, beat.received_at), beat.received_at)
    stopped = []
    for rank in range(world_size):
        silence = now - last.get(rank, start)
        if silence > timeout:
            stopped.append(Stopped(rank, last.get(rank), silence))
    return sorted(stopped, key=lambda s: (-s.silence, s.rank))
