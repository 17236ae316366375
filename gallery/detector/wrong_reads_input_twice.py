"""WRONG: the heartbeats are read twice, once to validate and once to count.

A log streamed from a file, or any iterator, is exhausted by the first pass:
the second sees nothing, so every rank looks never heard.  Read the input
once (validate each heartbeat as you count it), or copy it into a list.
"""

from collections.abc import Iterable

from solution import Heartbeat, Stopped

FAILS = "input_order"


def detect(
    heartbeats: Iterable[Heartbeat], *, world_size: int, start: int, now: int, timeout: int
) -> list[Stopped]:
    if world_size < 0 or timeout < 0 or now < start:
        raise ValueError("bad window")
    for beat in heartbeats:  # the first pass
        if not 0 <= beat.rank < world_size or beat.received_at < start:
            raise ValueError(f"bad heartbeat {beat}")
    last: dict[int, int] = {}
    for beat in heartbeats:  # the mistake: a second pass over an iterator sees nothing
        if beat.received_at <= now:
            last[beat.rank] = max(last.get(beat.rank, beat.received_at), beat.received_at)
    stopped = []
    for rank in range(world_size):
        silence = now - last.get(rank, start)
        if silence > timeout:
            stopped.append(Stopped(rank, last.get(rank), silence))
    return sorted(stopped, key=lambda s: (-s.silence, s.rank))
