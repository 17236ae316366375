"""WRONG: the caller's list of heartbeats is sorted in place.

Sorting by receive time and keeping the last one per rank gives the right
answer, but `heartbeats.sort()` reorders the caller's data behind their back
(a log they were about to write out, a list another thread reads).  Sort a
copy (`sorted(heartbeats, ...)`), or keep each rank's maximum without sorting.
"""

from solution import Heartbeat, Stopped

FAILS = "input_order"


def detect(
    heartbeats: list[Heartbeat], *, world_size: int, start: int, now: int, timeout: int
) -> list[Stopped]:
    if world_size < 0 or timeout < 0 or now < start:
        raise ValueError("bad window")
    heartbeats.sort(key=lambda b: b.received_at)  # the mistake: the caller's list, in place
    last: dict[int, int] = {}
    for beat in heartbeats:
        if not 0 <= beat.rank < world_size or beat.received_at < start:
            raise ValueError(f"bad heartbeat {beat}")
        if beat.received_at <= now:
            last[beat.rank] = beat.received_at  # sorted, so the last is the latest
    stopped = []
    for rank in range(world_size):
        silence = now - last.get(rank, start)
        if silence > timeout:
            stopped.append(Stopped(rank, last.get(rank), silence))
    return sorted(stopped, key=lambda s: (-s.silence, s.rank))
