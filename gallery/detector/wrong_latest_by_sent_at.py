"""WRONG: the latest heartbeat picked by its sent_at, its received_at reported.

last_heard is a receive time, as it should be, but of the heartbeat the
sender stamped latest, not the one received latest.  A sender's clock that
steps back (NTP, a restart) makes an old receipt look newest, so a healthy
rank is reported silent; one that jumps ahead pins last_heard to one
receipt, and every later heartbeat is ignored.  Rule 3: sent_at never
changes the answer; rule 2: last_heard is the greatest received_at.
"""

from solution import Heartbeat, Stopped

FAILS = "receive_clock"


def detect(
    heartbeats: list[Heartbeat], *, world_size: int, start: int, now: int, timeout: int
) -> list[Stopped]:
    if world_size < 0 or timeout < 0 or now < start:
        raise ValueError("bad window")
    last: dict[int, int] = {}
    newest_sent: dict[int, int] = {}
    for beat in heartbeats:
        if not 0 <= beat.rank < world_size or beat.received_at < start:
            raise ValueError(f"bad heartbeat {beat}")
        if beat.received_at <= now:
            sent = newest_sent.get(beat.rank)
            if sent is None or beat.sent_at > sent:  # the mistake: newest by the sender's clock
                newest_sent[beat.rank] = beat.sent_at
                last[beat.rank] = beat.received_at
    stopped = []
    for rank in range(world_size):
        silence = now - last.get(rank, start)
        if silence > timeout:
            stopped.append(Stopped(rank, last.get(rank), silence))
    return sorted(stopped, key=lambda s: (-s.silence, s.rank))
