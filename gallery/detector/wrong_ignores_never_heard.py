"""WRONG: ranks never heard are not reported.

A rank may die before its first heartbeat (a bad host, a hung import). Only the
heard ranks are looked at here, so those are never reported.
"""

from solution import Heartbeat, Stopped

FAILS = "never_heard"


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
    for rank, heard in last.items():  # the mistake: only ranks that were heard
        silence = now - heard
        if silence > timeout:
            stopped.append(Stopped(rank, heard, silence))
    return sorted(stopped, key=lambda s: (-s.silence, s.rank))
