"""WRONG: last_heard taken from sent_at, the sender's clock.

The sender's clock is another host's: skewed by hours, free to jump. A clock
behind makes a healthy rank look silent; one ahead hides a dead rank.
"""

from solution import Heartbeat, Stopped

FAILS = "receive_clock"


def detect(
    heartbeats: list[Heartbeat], *, world_size: int, start: int, now: int, timeout: int
) -> list[Stopped]:
    if world_size < 0 or timeout < 0 or now < start:
        raise ValueError("bad window")
    last: dict[int, int] = {}
    for beat in heartbeats:
        if not 0 <= beat.rank < world_size or beat.received_at < start:
            raise ValueError(f"bad heartbeat {beat}")
        if beat.received_at <= now:  # the mistake: the sender's timestamp
            last[beat.rank] = max(last.get(beat.rank, beat.sent_at), beat.sent_at)
    stopped = []
    for rank in range(world_size):
        silence = now - last.get(rank, start)
        if silence > timeout:
            stopped.append(Stopped(rank, last.get(rank), silence))
    return sorted(stopped, key=lambda s: (-s.silence, s.rank))
