"""A simulated training job's heartbeat log, deterministic for a given seed.

Times are milliseconds.  ``received_at`` is the collector's monotonic clock
(0 when the job starts); ``sent_at`` is each sender's wall clock, in epoch
milliseconds, off by a small skew, or by hours on the ranks given in `skews`.
Heartbeats are sent once per `interval` by the training loop, so a rank that
dies, pauses or blocks in a collective stops beating.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field

from solution.detector import Heartbeat

EPOCH_MS = 1_764_400_000_000  # the wall clock when the collector started
HOUR_MS = 3_600_000


@dataclass(frozen=True)
class Job:
    """What happens to each rank; every time in collector milliseconds.

    A rank stops sending at `silent_from[rank]` (death, or blocking in a
    collective behind a dead peer) and pauses over each [begin, end) of
    `paused[rank]` (a long GC, a checkpoint save).  `forced` adds heartbeats
    received at exact times, for scenarios that need a boundary case.
    """

    world_size: int
    interval: int = 1000
    send_jitter: int = 20  # training-loop wobble around the heartbeat schedule
    max_delay: int = 40  # network delay, uniform in [1, max_delay]
    end: int = 60_000
    silent_from: Mapping[int, int] = field(default_factory=dict)
    paused: Mapping[int, tuple[tuple[int, int], ...]] = field(default_factory=dict)
    skews: Mapping[int, int] = field(default_factory=dict)
    forced: tuple[Heartbeat, ...] = ()

    @property
    def jitter(self) -> int:
        """How far a heartbeat's arrival can stray from its schedule."""
        return self.send_jitter + self.max_delay


def heartbeats(job: Job, *, seed: int) -> list[Heartbeat]:
    """The job's heartbeat log, in receive order, for one seed."""
    rng = random.Random(seed)
    beats = [beat for rank in range(job.world_size) for beat in _rank_beats(job, rank, rng)]
    beats.extend(job.forced)
    return sorted(beats, key=lambda beat: (beat.received_at, beat.rank))


def _rank_beats(job: Job, rank: int, rng: random.Random) -> Iterator[Heartbeat]:
    skew = job.skews.get(rank, rng.randint(-200, 200))  # NTP keeps most within ms
    phase = rng.randrange(job.interval)
    stop = min(job.end, job.silent_from.get(rank, job.end))
    for scheduled in range(phase, stop, job.interval):
        sent = scheduled + rng.randint(0, job.send_jitter)
        if sent >= stop or any(b <= sent < e for b, e in job.paused.get(rank, ())):
            continue
        received = sent + rng.randint(1, job.max_delay)
        if received <= job.end:
            yield Heartbeat(rank, EPOCH_MS + sent + skew, received)
