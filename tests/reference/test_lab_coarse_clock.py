"""The boundary where it matters: a coarse clock makes exact ties common.

Under continuous jitter a rank is exactly `timeout` late with probability
zero, and `>` and `>=` make the same mistakes.  A collector that reads its
clock once a tick stamps every heartbeat on its tick, exactly an interval
after the one before; at a check on a tick a live rank that missed k - 1
heartbeats is exactly k intervals, the timeout, late, while its k-th is on
the wire.  The first tests hold the lab's coarse-clock detectors to `detect`,
`PhiAccrual` and `guard_mass_silence` reading that clock at every instant;
the others measure.
"""

from __future__ import annotations

import math
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from solution.detector import Heartbeat, detect
from solution.diagnosis import PhiAccrual
from solution.lab import Job, Outcome, causes, run
from solution.lab import detectors as lab
from solution.lab.run import rank_trace
from solution.lab.scenarios import Cause
from solution.lab.trace import Trace
from tests.reference.lab_checks import assert_the_guard_holds

pytestmark = pytest.mark.reference

END = 400
receipts = st.lists(st.integers(0, END - 1), max_size=14).map(sorted)
ticks = st.sampled_from([2, 5, 10])


def _ticks(suspicions: list[lab.Suspicion]) -> set[int]:
    return {t for _, start, end in suspicions for t in range(start, end)}


@given(receipts, st.integers(0, 60), st.booleans(), ticks)
def test_on_a_coarse_clock_the_labs_timeout_suspects_exactly_when_detect_reports(
    heard: list[int], limit: int, strict: bool, tick: int
) -> None:
    """At every instant the collector's clock reads it down to a tick, and each heartbeat
    that has arrived is stamped with the reading when it came: suspected iff detect (or its
    >= twin) reports the rank on those stamps at that reading."""
    trace = Trace(0, heard, heard, None, None, tick)
    suspected = _ticks(lab.timeout(trace, limit, END, strict=strict))
    for now in range(END):
        clock = now // tick * tick
        beats = [Heartbeat(0, t // tick * tick, t // tick * tick) for t in heard if t <= now]
        if strict:
            reported = bool(detect(beats, world_size=1, start=0, now=clock, timeout=limit))
        else:
            last = max((b.received_at for b in beats), default=0)
            reported = clock - last >= limit
        assert (now in suspected) == reported, (now, heard, limit, tick)


@given(receipts, st.integers(1, 20), st.integers(0, 2_000), st.integers(10, 200), ticks)
def test_on_a_coarse_clock_the_labs_phi_suspects_exactly_when_phi_accrual_does(
    heard: list[int], window: int, pause: int, first: int, tick: int
) -> None:
    """PhiAccrual on the collector's coarse clock, a heartbeat at each arrival, asked at
    every instant: unavailable iff suspected."""
    heard = sorted(set(heard))
    trace = Trace(0, heard, heard, None, None, tick)
    suspected = _ticks(
        lab.phi_accrual(trace, END, window=window, floor=5, pause=pause, first=first)
    )
    clock = [0]
    detector = PhiAccrual(
        clock=lambda: clock[0],
        acceptable_heartbeat_pause=pause,
        max_sample_size=window,
        min_std_deviation=5,
        first_heartbeat_estimate=first,
    )
    beats = set(heard)
    for now in range(END):
        clock[0] = now // tick * tick
        if now in beats:
            detector.heartbeat()
        assert (now in suspected) == (not detector.is_available()), (now, heard, tick)


@given(
    st.lists(st.lists(st.integers(0, 120), max_size=4).map(sorted), min_size=4, max_size=4),
    st.integers(5, 25),
    ticks,
)
def test_on_a_coarse_clock_the_labs_guard_holds_its_window_on_the_clock(
    heard_by_rank: list[list[int]], limit: int, tick: int
) -> None:
    """Four ranks, the guard read at every instant.  A rank is reported iff it is suspected,
    not in the guard's fault, and the clock reads at least one window since it was first
    suspected and since it was last in a fault: reports begin at checks on a tick."""
    assert_the_guard_holds(heard_by_rank, limit, tick=tick)


JOB = Job(ranks=32)


def _coarse(job: Job) -> Cause:
    return next(cause for cause in causes(job) if cause.tick is not None)


@pytest.fixture(scope="module")
def coarse() -> Outcome:
    return run(JOB, _coarse(JOB), seed=1)


def test_at_a_check_on_the_tick_a_live_rank_is_exactly_the_timeout_late(
    coarse: Outcome,
) -> None:
    """The explanation.  A heartbeat is stamped on the tick it is due, a whole number of
    intervals after the one before, so at the check on that tick, before it arrives, the
    silence is exactly the intervals since; after k - 1 misses, exactly the timeout (k
    intervals: the stamps carry no jitter, so the plan allows no margin).  `>=` reports the
    rank there, a few milliseconds before its heartbeat arrives; `>` never does.  Every
    such tie is one more false alarm of `>=`, and the only ones it adds."""
    tick, interval, timeout = coarse.cause.tick, JOB.interval, coarse.timeout
    assert tick is not None
    assert timeout == coarse.k * interval
    ties = overdue = 0
    for rank in range(JOB.ranks):
        arrivals = rank_trace(JOB, coarse.cause, rank, seed=1).receipts
        stamps = [t // tick * tick for t in arrivals]
        for earlier, stamp, arrived in zip(stamps, stamps[1:], arrivals[1:], strict=False):
            assert (stamp - earlier) % interval == 0, rank
            if stamp - earlier == timeout:  # k - 1 heartbeats missed, the k-th due
                due = stamp  # a check on this tick comes before the heartbeat arrives
                assert due % tick == 0
                assert due < arrived
                received = zip(stamps, arrivals, strict=True)
                heard = [Heartbeat(rank, s, s) for s, t in received if t <= due]
                assert due - max(b.received_at for b in heard) == timeout
                late = detect(heard, world_size=rank + 1, start=0, now=due, timeout=timeout)
                assert rank not in [stopped.rank for stopped in late]
                ties += 1
            overdue += stamp - earlier > timeout  # k missed: late for both
    assert ties > 0
    assert coarse.inclusive == overdue + ties
    assert coarse.measured == overdue


def test_on_a_coarse_clock_inclusive_makes_strictly_more_false_alarms(coarse: Outcome) -> None:
    """`>` keeps the arithmetic's promise (k misses: n * p**k); `>=` counts k - 1 misses
    as k and makes about n * p**(k - 1), a hundred times more at 1% loss."""
    assert coarse.cause.independent
    assert coarse.inclusive > coarse.measured
    assert coarse.measured <= coarse.predicted + 3 * math.sqrt(coarse.predicted) + 1
    one_short = coarse.predicted / float(coarse.miss_probability)  # n * p**(k - 1)
    assert abs(coarse.inclusive - one_short) <= 3 * math.sqrt(one_short)
    assert coarse.inclusive > 10 * coarse.predicted


def test_with_continuous_jitter_the_boundary_changes_nothing() -> None:
    """On the fine clock, at 10% loss so that there are mistakes to compare: the margin
    covers the jitter, no silence ends exactly at the timeout, and `>` and `>=` make the
    same mistakes, each a millisecond apart."""
    job = Job(ranks=32, loss=Fraction(1, 10), budget=Fraction(100))
    outcome = run(job, causes(job)[0], seed=1)
    assert outcome.measured > 0
    assert outcome.inclusive == outcome.measured


def test_a_coarse_clock_needs_the_jitter_within_a_tick() -> None:
    with pytest.raises(ValueError, match="coarse clock"):
        run(Job(delay=(1, 150)), _coarse(Job()), seed=1)
