"""WRONG: times converted to float seconds.

A collector up for months counts ~1e16 ns; a float there is spaced ~2 ns apart,
so a silence one nanosecond past the timeout compares equal to it.
"""

from solution import Heartbeat, Stopped

FAILS = "boundary"


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
    for rank in range(world_size):
        # the mistake: floats of seconds
        silence_s = now / 1e9 - last.get(rank, start) / 1e9
        if silence_s > timeout / 1e9:
            stopped.append(Stopped(rank, last.get(rank), round(silence_s * 1e9)))
    return sorted(stopped, key=lambda s: (-s.silence, s.rank))
