"""What the collector receives from each rank: one rank's trace, seeded.

A rank sends a heartbeat every interval from a random phase, except while
paused (a GC stop, a checkpoint save) or once stopped (dead, or blocked
behind a dead peer).  Each heartbeat is lost or delayed by the channel; a
heartbeat that arrives while the collector is stalled is read, and stamped,
when the stall ends.  The trace is the receive times, in order, with for
each the latest sender timestamp heard so far (what a detector trusting
``sent_at`` would use) and the rank's progress.

On a coarse clock (`Cause.tick`) a rank beats on ticks, and the receipts
are still the instants the heartbeats arrive: the detectors read them as
the collector does, each stamped with the tick it arrived in.
"""

from __future__ import annotations

import bisect
import itertools
import math
import operator
from collections.abc import Iterable
from dataclasses import dataclass
from random import Random

from solution.lab.scenarios import DEAD, GROUP, HUNG, SKEWED, STEPPED, Cause, Job

SKEW = -3 * 3_600_000  # rank 2's clock: 3 h behind
STEP = -10_000  # rank 3's clock steps back 10 s at mid-run


@dataclass(frozen=True)
class Trace:
    rank: int
    receipts: list[int]  # the collector's clock, ascending
    stamps: list[int]  # the latest sender timestamp heard at each receipt
    stopped_at: int | None  # when it stopped sending for good (dead or blocked), if it did
    progress_since: int | None  # for the hung rank: when its final progress was first heard
    tick: int = 1  # the collector's clock: a receipt at r is stamped r // tick * tick


def stalls(job: Job, cause: Cause) -> list[tuple[int, int]]:
    """The collector's stalls, [begin, end), if the cause has any."""
    if cause.stall is None:
        return []
    every, length = cause.stall
    return [(t, t + length) for t in range(every, job.horizon, every)]


def trace(job: Job, cause: Cause, rank: int, rng: Random, stalled: list[tuple[int, int]]) -> Trace:
    interval, horizon = job.interval, job.horizon
    stop = horizon
    if rank == DEAD:
        stop = job.death
    elif cause.cascade and rank in GROUP:
        stop = job.death + interval // 2  # blocked at its next collective
    tick = cause.tick or 1
    phase = rng.randrange(interval // tick) * tick
    sends = _unpaused(range(phase, stop, interval), _pauses(job, cause, rng))
    delivered = _bursty(sends, cause, rng) if cause.bursty else _independent(sends, job, rng)
    receipts = list(map(operator.add, delivered, _delays(len(delivered), job, cause, rng)))
    if not all(map(operator.le, receipts, itertools.islice(receipts, 1, None))):
        pairs = sorted(zip(receipts, delivered, strict=True))  # a long delay overtaken
        receipts, delivered = [r for r, _ in pairs], [sent for _, sent in pairs]
    for begin, end in stalled:  # what arrives during a stall is read when it ends
        first, last = bisect.bisect_left(receipts, begin), bisect.bisect_left(receipts, end)
        receipts[first:last] = [end] * (last - first)
    kept = bisect.bisect_left(receipts, horizon)
    receipts, delivered = receipts[:kept], delivered[:kept]
    sent_at: Iterable[int] = delivered
    if cause.skew and rank in (SKEWED, STEPPED):
        sent_at = (sent + _skew(rank, sent, job) for sent in delivered)
    stamps = list(itertools.accumulate(sent_at, max))
    since = None
    if rank == HUNG:  # its progress stops when it hangs: when was the final value first heard?
        final = job.hang // interval
        heard = zip(receipts, delivered, strict=True)
        since = next((r for r, sent in heard if min(sent, job.hang) // interval == final), None)
        since = None if since is None else since // tick * tick
    return Trace(rank, receipts, stamps, stop if stop < horizon else None, since, tick)


def _pauses(job: Job, cause: Cause, rng: Random) -> list[tuple[int, int]]:
    found = []
    if cause.gc is not None:
        rate, mean = cause.gc
        t = rng.expovariate(rate / 3_600_000)
        while t < job.horizon:
            found.append((int(t), int(t + rng.expovariate(1 / mean))))
            t += rng.expovariate(rate / 3_600_000)
    if cause.checkpoint is not None:
        every, length = cause.checkpoint
        found += [(t, t + length) for t in range(every, job.horizon, every)]
    return sorted(found)


def _unpaused(sends: range, pauses: list[tuple[int, int]]) -> list[int]:
    if not pauses:
        return list(sends)
    return [t for t in sends if not _inside(t, pauses)]


def _inside(t: int, pauses: list[tuple[int, int]]) -> bool:
    at = bisect.bisect_right(pauses, (t, math.inf)) - 1
    return any(b <= t < e for b, e in pauses[max(0, at - 3) : at + 1])


def _independent(sends: list[int], job: Job, rng: Random) -> list[int]:
    loss, draw = float(job.loss), rng.random
    return [t for t in sends if draw() >= loss]


def _bursty(sends: list[int], cause: Cause, rng: Random) -> list[int]:
    """Gilbert-Elliott: a good and a bad state, each with its own loss; the state is a
    Markov chain, one step per heartbeat."""
    assert cause.bursty is not None
    good_loss, bad_loss, to_bad, to_good = cause.bursty
    draw, bad, kept = rng.random, False, []
    for t in sends:
        bad = draw() >= to_good if bad else draw() < to_bad
        if draw() >= (bad_loss if bad else good_loss):
            kept.append(t)
    return kept


def _delays(count: int, job: Job, cause: Cause, rng: Random) -> list[int]:
    draw = rng.random
    if cause.tail is None:
        low, high = job.delay
        span = high - low + 1
        return [low + int(draw() * span) for _ in range(count)]
    median, sigma = cause.tail
    mu, lognormal = math.log(median), rng.lognormvariate
    return [1 + min(60_000, int(lognormal(mu, sigma))) for _ in range(count)]


def _skew(rank: int, sent: int, job: Job) -> int:
    if rank == SKEWED:
        return SKEW
    if rank == STEPPED and sent >= job.horizon // 2:
        return STEP
    return 0
