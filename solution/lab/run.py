"""One run of the lab: a job, one cause, every detector; the quality of each, measured.

The figures are Chen, Toueg and Aguilera's quality-of-service metrics for
failure detectors ("On the Quality of Service of Failure Detectors", 2002):

* detection time: from the death to the moment the detector suspects the
  rank for good;
* mistake rate: false suspicions of ranks that are alive, per rank-hour;
* mistake duration: how long a false suspicion lasts, on average;
* query accuracy: the probability that asking the detector about a live rank
  at a random instant gets "alive".

A rank blocked behind its dead peer (a cascade) stopped for real: it is not
counted as a mistake.  The prediction is the threshold arithmetic's bound,
``n * p**k`` false alarms over the run, for the receive-clock timeout.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from random import Random

from solution.lab import detectors
from solution.lab.scenarios import DEAD, GROUP, HOUR, Cause, Job
from solution.lab.trace import Trace, stalls, trace
from solution.threshold import Threshold

DETECTORS = ("timeout >", "timeout >=", "sent_at", "phi", "timeout > + guard", "phi + guard")


@dataclass(frozen=True)
class Quality:
    detector: str
    mistakes: int  # false suspicions of live ranks
    mistake_rate: float  # per rank-hour
    mistake_duration: float  # ms, on average; 0 without mistakes
    accuracy: float  # P(a live rank is not suspected at a random instant)
    detection: int | None  # ms from the death to the final suspicion; None if never
    faults: int  # collector faults the guard reported


@dataclass(frozen=True)
class Outcome:
    cause: Cause
    miss_probability: Fraction
    k: int
    timeout: int
    predicted: float  # n * p**k false alarms over the run
    qualities: tuple[Quality, ...]
    heartbeats: int  # received, over every rank
    hung_detection: int | None  # diagnose's stall rule, ms after the rank hung
    first_reported: int | None  # of the dead rank and its group, the longest silent

    @property
    def measured(self) -> int:
        """The receive-clock timeout's false alarms: the figure the prediction is about."""
        return self.qualities[0].mistakes

    @property
    def inclusive(self) -> int:
        """The same timeout's false alarms with `>=`: a rank exactly `timeout` late reported."""
        return self.quality("timeout >=").mistakes

    def quality(self, detector: str) -> Quality:
        return next(q for q in self.qualities if q.detector == detector)


def plan(job: Job, cause: Cause) -> Threshold:
    return Threshold(
        interval=job.interval,
        miss_probability=cause.miss_probability(job),
        ranks=job.ranks,
        horizon=job.horizon,
        budget=job.budget,
        delay=cause.margin(job),
    )


def run(
    job: Job,
    cause: Cause,
    *,
    seed: int = 1,
    timeout: int | None = None,
    progress: Callable[[int], None] | None = None,
) -> Outcome:
    """Every rank's trace, every detector on it, and what each got right and wrong.

    The timeouts are the threshold arithmetic's, unless `timeout` says otherwise (the
    prediction is still the arithmetic's).  `progress`, if given, is told the ranks
    done after each rank.
    """
    tick = cause.tick or 1
    if job.interval % tick or job.horizon % tick or job.delay[1] >= tick > 1:
        raise ValueError("a coarse clock needs whole ticks of interval and delays within one")
    threshold = plan(job, cause)
    limit, end = threshold.timeout if timeout is None else timeout, job.horizon
    stalled = stalls(job, cause)
    rules: dict[str, Callable[[Trace], list[detectors.Suspicion]]] = {
        "timeout >": lambda t: detectors.timeout(t, limit, end),
        "timeout >=": lambda t: detectors.timeout(t, limit, end, strict=False),
        "sent_at": lambda t: detectors.sender_clock(t, limit, end),
        "phi": lambda t: detectors.phi_accrual(
            t, end, floor=job.interval // 10, pause=3 * job.interval, first=job.interval
        ),
    }
    found: dict[str, dict[int, list[detectors.Suspicion]]] = {name: {} for name in rules}
    traces, heartbeats = [], 0
    for rank in range(job.ranks):  # one rank's trace in memory at a time: a day is 86,400 beats
        full = rank_trace(job, cause, rank, seed, stalled)
        for name, rule in rules.items():
            found[name][rank] = rule(full)
        heartbeats += len(full.receipts)
        traces.append(Trace(rank, [], [], full.stopped_at, full.progress_since, full.tick))
        if progress is not None:
            progress(rank + 1)
    faults = dict.fromkeys(found, 0)
    for base in ("timeout >", "phi"):
        kept, reported = detectors.guarded(found[base], job, tick)
        found[f"{base} + guard"], faults[f"{base} + guard"] = kept, len(reported)
    qualities = tuple(_quality(name, found[name], faults[name], traces, job) for name in DETECTORS)
    hung = next((t for t in traces if t.progress_since is not None), None)
    return Outcome(
        cause,
        threshold.miss_probability,
        threshold.k,
        limit,
        float(threshold.expected_false_alarms),
        qualities,
        heartbeats,
        None if hung is None else _hung_detection(hung, job),
        _first_reported(found["timeout >"], traces, job),
    )


def rank_trace(
    job: Job, cause: Cause, rank: int, seed: int = 1, stalled: list[tuple[int, int]] | None = None
) -> Trace:
    """What the collector receives from one rank in `run`'s simulation with this seed."""
    stalled = stalls(job, cause) if stalled is None else stalled
    return trace(job, cause, rank, Random(seed * 100_003 + rank), stalled)


def _quality(
    name: str,
    suspicions: dict[int, list[detectors.Suspicion]],
    faults: int,
    traces: list[Trace],
    job: Job,
) -> Quality:
    mistakes, wrong_for, alive_for, detection = 0, 0, 0, None
    for t in traces:
        alive_until = job.horizon if t.stopped_at is None else t.stopped_at
        alive_for += alive_until
        for _, start, end in suspicions.get(t.rank, ()):
            if start < alive_until:
                mistakes += 1
                wrong_for += min(end, alive_until) - start
            if t.rank == DEAD and end == job.horizon:
                detection = max(0, start - job.death)
    hours = Fraction(alive_for, HOUR)
    return Quality(
        name,
        mistakes,
        float(mistakes / hours) if hours else 0.0,
        wrong_for / mistakes if mistakes else 0.0,
        1 - wrong_for / alive_for,
        detection,
        faults,
    )


def _hung_detection(hung: Trace, job: Job) -> int | None:
    """diagnose's rule: hung once its final progress is older than stall_timeout (at the
    first check, on a coarse clock's tick)."""
    assert hung.progress_since is not None
    found = hung.progress_since + job.stall_timeout + 1
    found = -(-found // hung.tick) * hung.tick
    return found - job.hang if found < job.horizon else None


def _first_reported(
    suspicions: dict[int, list[detectors.Suspicion]], traces: list[Trace], job: Job
) -> int | None:
    """Once the dead rank and every rank blocked behind it are reported, the one listed
    first (the longest silent): the rank to look at."""
    group = [t.rank for t in traces if t.stopped_at is not None and t.rank in (DEAD, *GROUP)]
    last = {r: next((s for s in suspicions.get(r, ()) if s[2] == job.horizon), None) for r in group}
    if not group or any(span is None for span in last.values()):
        return None
    return min(group, key=lambda r: (last[r][0], r))  # type: ignore[index]
