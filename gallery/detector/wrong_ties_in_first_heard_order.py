"""WRONG: ranks of equal silence in the order first heard, not by rank.

`sort(key=silence, reverse=True)` is stable: ties keep the order they were
collected in, here the order the ranks were first heard, which depends on
the log.  The report orders ties by rank ascending (rule 6), whatever the
log's order: sort on (-silence, rank).
"""

from solution import Heartbeat, Stopped

FAILS = "ordering"


def detect(
    heartbeats: list[Heartbeat], *, world_size: int, start: int, now: int, timeout: int
) -> list[Stopped]:
    if world_size < 0 or timeout < 0 or now < start:
        raise ValueError("bad window")
    last: dict[int, int] = {}
    for beat in heartbeats:
        if not 0 <= beat.rank < world_size or beat.received_at < start:
            raise ValueError(f"bad heartbeat {beat}")
        if beat.received_at <= now:
            last[beat.rank] = max(last.get(beat.rank, beat.received_at), beat.received_at)
    stopped = []
    for rank in [*last, *(r for r in range(world_size) if r not in last)]:
        silence = now - last.get(rank, start)
        if silence > timeout:
            stopped.append(Stopped(rank, last.get(rank), silence))
    return sorted(stopped, key=lambda s: s.silence, reverse=True)  # the mistake: ties as met
