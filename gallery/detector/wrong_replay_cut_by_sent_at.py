"""WRONG: the log replayed as of `now` by the sender's clock.

Silence is measured from `received_at`, rightly, but the cut of what had
arrived by `now` is made on `sent_at`: a sender whose clock runs ahead has
every heartbeat dropped from the replay (its rank looks never heard), and
one whose clock runs behind has heartbeats counted that arrived after `now`.
`sent_at` is another host's clock: it decides nothing, the cut included.
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
        if beat.sent_at > now:  # the mistake: the sender's clock decides what had arrived
            continue
        last[beat.rank] = max(last.get(beat.rank, beat.received_at), beat.received_at)
    stopped = []
    for rank in range(world_size):
        silence = now - last.get(rank, start)
        if silence > timeout:
            stopped.append(Stopped(rank, last.get(rank), silence))
    return sorted(stopped, key=lambda s: (-s.silence, s.rank))
