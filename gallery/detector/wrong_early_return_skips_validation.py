"""WRONG: an early return, before nobody can be silent, skips validating the heartbeats.

"If now - start <= timeout, nobody can have been silent long enough: return
[]" is a fine shortcut, but placed before the checks it answers a question
with a rank outside the world, or a heartbeat before start, instead of
refusing it.  Validate first; shortcut after.
"""

from solution import Heartbeat, Stopped

FAILS = "validation"


def detect(
    heartbeats: list[Heartbeat], *, world_size: int, start: int, now: int, timeout: int
) -> list[Stopped]:
    if world_size < 0 or timeout < 0 or now < start:
        raise ValueError("bad window")
    if now - start <= timeout:
        return []  # the mistake: returns before the heartbeats are checked
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
