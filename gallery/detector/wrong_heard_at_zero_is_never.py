"""WRONG: a rank's last receipt tested for truth, so one heard at tick 0 counts as never heard.

`if last_heard:` is false for 0 as for None.  A collector clock may read 0
(or anything: `start` can be negative), and a rank heard then is heard: its
silence runs from 0, not from `start`, and its `last_heard` is 0.  Compare
with `is None`.
"""

from collections.abc import Iterable

from solution import Heartbeat, Stopped

FAILS = "input_order"


def detect(
    heartbeats: Iterable[Heartbeat], *, world_size: int, start: int, now: int, timeout: int
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
        heard = last.get(rank)
        since = heard if heard else start  # the mistake: 0 is taken for "never heard"
        if now - since > timeout:
            stopped.append(Stopped(rank, heard if heard else None, now - since))
    return sorted(stopped, key=lambda s: (-s.silence, s.rank))
