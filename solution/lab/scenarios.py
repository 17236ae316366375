"""The lab's job and the causes of false alarms it can switch on, one at a time.

Times are milliseconds.  Every scenario is the same job (the base: 1 s
heartbeats, 1% independent loss, 1-40 ms of delay, a 200 ms margin) with one
cause added (a coarse clock stamps the jitter away, and needs no margin).
In every scenario rank 8 dies at 40% of the run and rank 1 hangs at 60% (it
keeps beating, its progress stops): the detection side.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from statistics import NormalDist

HOUR = 3_600_000
DEAD, HUNG, SKEWED, STEPPED = 8, 1, 2, 3  # the ranks with a role
GROUP = range(9, 16)  # the dead rank's collective group: ranks 8 to 15, one node


@dataclass(frozen=True)
class Job:
    ranks: int = 128
    hours: int = 1
    interval: int = 1_000
    loss: Fraction = Fraction(1, 100)  # independent, per heartbeat
    delay: tuple[int, int] = (1, 40)  # uniform, inclusive
    margin: int = 200  # a heartbeat later than this counts as missed
    budget: Fraction = Fraction(1)  # false alarms allowed over the run
    stall_timeout: int = 10_000  # diagnose's: no progress for longer is hung
    guard_fraction: Fraction = Fraction(1, 4)

    def __post_init__(self) -> None:
        if self.ranks < 16 or self.hours < 1 or self.interval < 1:
            raise ValueError("the lab needs at least 16 ranks, one hour and an interval >= 1")

    @property
    def horizon(self) -> int:
        return self.hours * HOUR

    @property
    def death(self) -> int:
        return self.horizon * 2 // 5

    @property
    def hang(self) -> int:
        return self.horizon * 3 // 5

    @property
    def window(self) -> int:
        """The guard's window: one interval plus the delay's spread."""
        return self.interval + self.delay[1] - self.delay[0]


@dataclass(frozen=True)
class Cause:
    name: str
    what: str
    bursty: tuple[float, float, float, float] | None = None  # good loss, bad loss, g->b, b->g
    tail: tuple[float, float] | None = None  # log-normal delay: median ms, sigma
    gc: tuple[float, int] | None = None  # pauses per rank-hour, mean length ms
    checkpoint: tuple[int, int] | None = None  # every, lasting (ms): every rank at once
    stall: tuple[int, int] | None = None  # every, lasting (ms): the collector reads nothing
    skew: bool = False  # rank 2's clock 3 h behind; rank 3's steps back 10 s mid-run
    cascade: bool = False  # rank 8's group blocks half an interval after it dies
    # The collector's clock reads in ticks (ms): each receipt is stamped with the tick it
    # arrives in and the checks fall on ticks; beats are sent on ticks, jitter within one.
    tick: int | None = None
    # Misses stay independent, so the receive-clock timeout keeps the n * p**k promise.
    independent: bool = False

    def margin(self, job: Job) -> int:
        """The delay the timeout allows beyond k intervals.  On a coarse clock a beat is
        stamped on its own tick, exactly its interval after the one before, whatever its
        jitter: none to allow for, and the timeout is k intervals exactly."""
        return job.margin if self.tick is None else 0

    def miss_probability(self, job: Job) -> Fraction:
        """p per heartbeat on average: lost, or later than the margin."""
        if self.tail is None:
            return job.loss
        median, sigma = self.tail
        late = 1 - NormalDist(math.log(median), sigma).cdf(math.log(job.margin))
        return job.loss + (1 - job.loss) * Fraction(late).limit_denominator(10**12)


def _bursty_matching(
    loss: float, bad_loss: float = 0.5, burst: int = 20
) -> tuple[float, float, float, float]:
    """A Gilbert-Elliott channel whose average loss is `loss`: in the bad state half the
    heartbeats are lost, bursts last `burst` heartbeats on average."""
    good_loss = loss / 5
    bad_share = (loss - good_loss) / (bad_loss - good_loss)
    to_good = 1 / burst
    to_bad = to_good * bad_share / (1 - bad_share)
    return (good_loss, bad_loss, to_bad, to_good)


def causes(job: Job) -> list[Cause]:
    """Every scenario of the lab, the base first."""
    loss = float(job.loss)
    return [
        Cause("independent loss", "1% of heartbeats lost, each on its own", independent=True),
        Cause(
            "long-tailed delay",
            "delays log-normal (median 20 ms, sigma 1.5): 6% later than the margin",
            tail=(20.0, 1.5),
            independent=True,
        ),
        Cause(
            "bursty loss",
            "the same 1% lost, in bursts (Gilbert-Elliott, 20 heartbeats a burst)",
            bursty=_bursty_matching(loss),
        ),
        Cause("GC pauses", "each rank pauses 6 times an hour, 1 s on average", gc=(6.0, 1_000)),
        Cause(
            "checkpoint saves",
            "every 20 min every rank stops beating for 8 s",
            checkpoint=(20 * 60_000, 8_000),
        ),
        Cause(
            "collector stall",
            "every 20 min the collector reads nothing for 6 s",
            stall=(20 * 60_000, 6_000),
        ),
        Cause(
            "sender clocks",
            "rank 2's clock 3 h behind, rank 3's steps back 10 s",
            skew=True,
            independent=True,
        ),
        Cause(
            "cascade",
            "rank 8 dies and its node's 7 other ranks block behind it",
            cascade=True,
            independent=True,
        ),
        Cause(
            "coarse clock",
            "receipts stamped, and checks made, on the collector's 100 ms tick; beats on ticks,"
            " so no margin",
            tick=100,
            independent=True,
        ),
    ]
