"""WRONG: a rank is checked against world_size only: a negative rank is accepted.

`rank >= world_size` refuses a rank past the world, but -1 passes, and is
silently dropped (no rank of the world is -1): a heartbeat of a broken
sender goes unnoticed.  Ranks run from 0 to world_size - 1: check both ends.
"""

from solution import Heartbeat, Stopped

FAILS = "validation"


def detect(
    heartbeats: list[Heartbeat], *, world_size: int, start: int, now: int, timeout: int
) -> list[Stopped]:
    if world_size < 0 or timeout < 0 or now < start:
        raise ValueError("bad window")
    last: dict[int, int] = {}
    for beat in heartbeats:
        if beat.rank >= world_size or beat.received_at < start:  # the mistake: no lower end
            raise ValueError(f"bad heartbeat {beat}")
        if beat.received_at <= now:
            last[beat.rank] = max(last.get(beat.rank, beat.received_at), beat.received_at)
    stopped = []
    for rank in range(world_size):
        silence = now - last.get(rank, start)
        if silence > timeout:
            stopped.append(Stopped(rank, last.get(rank), silence))
    return sorted(stopped, key=lambda s: (-s.silence, s.rank))
