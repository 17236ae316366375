"""WRONG: the report is a generator, not a list.

Every value in it is right, but a generator can be read once, has no len()
and cannot be indexed: `report[0]`, the first rank to stop, fails, and a
second look at the report finds it empty.  Return a list.
"""

from collections.abc import Iterator

from solution import Heartbeat, Stopped

FAILS = "oracle"


def detect(
    heartbeats: list[Heartbeat], *, world_size: int, start: int, now: int, timeout: int
) -> Iterator[Stopped]:
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
    return (s for s in sorted(stopped, key=lambda s: (-s.silence, s.rank)))  # the mistake
