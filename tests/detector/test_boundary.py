"""The exact boundary: a rank is reported iff now - last_heard > timeout."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tests.support.detecting import Call, Detector, Row, beats
from tests.support.strategies import calls

pytestmark = [pytest.mark.boundary, pytest.mark.rules(5)]

STRICT = (
    "a rank is reported iff silence > timeout, in exact integer ticks: exactly `timeout` "
    "late is not reported (its k-th heartbeat is due, not missed)."
)
DAY_NS = 86_400 * 10**9


def test_rank_exactly_timeout_late_is_not_reported(detector: Detector) -> None:
    """With timeout = k * interval, at that instant the k-th heartbeat is due, not missed."""
    detector.check(Call(beats([(0, 3)]), 1, 0, 8, 5), [], rule=STRICT)


def test_rank_one_tick_past_timeout_is_reported(detector: Detector) -> None:
    """One tick later the k-th heartbeat is missed: the rank is reported, silence exact."""
    detector.check(Call(beats([(0, 3)]), 1, 0, 9, 5), [Row(0, 3, 6)], rule=STRICT)


def test_with_timeout_zero_only_a_rank_heard_now_is_healthy(detector: Detector) -> None:
    """Timeout 0: silence 0 is not more than 0; one tick of silence is."""
    call = Call(beats([(0, 10), (1, 9)]), 2, 0, 10, 0)
    detector.check(call, [Row(1, 9, 1)], rule=STRICT)


def test_every_small_boundary_case_matches_the_oracle(detector: Detector) -> None:
    """Exhaustively, for one rank: every last_heard, now and timeout on a small grid."""
    detector.check_each(
        (
            Call(beats([(0, last_heard)]), 1, 0, now, timeout)
            for last_heard in range(7)
            for now in range(last_heard, 14)
            for timeout in range(8)
        ),
        rule=STRICT,
    )


@pytest.mark.parametrize("days_up", [1, 106, 10_000])
def test_boundary_is_exact_at_nanosecond_times_of_a_long_uptime(
    detector: Detector, days_up: int
) -> None:
    """A collector up for months counts ~1e16 ns: floats cannot tell a nanosecond apart."""
    last_heard, timeout = days_up * DAY_NS + 123_456_789, 5 * 10**9 + 1
    start = last_heard - DAY_NS
    for now, expected in [
        (last_heard + timeout, []),
        (last_heard + timeout + 1, [Row(0, last_heard, timeout + 1)]),
    ]:
        detector.check(
            Call(beats([(0, last_heard)]), 1, start, now, timeout), expected, rule=STRICT
        )


@given(calls(), st.integers(0, 20))
def test_once_reported_a_rank_stays_reported_until_it_is_heard(
    detector: Detector, call: Call, later: int
) -> None:
    """Monotone in now: silence only grows while nothing new is received."""
    after = Call(call.heartbeats, call.world_size, call.start, call.now + later, call.timeout)
    heard_since = {b.rank for b in call.heartbeats if call.now < b.received_at <= after.now}

    def still_reported(before: tuple[Row, ...], then: tuple[Row, ...]) -> bool:
        return not ({r.rank for r in before} - heard_since - {r.rank for r in then})

    detector.holds(
        [call, after],
        still_reported,
        claim=f"a rank reported at now={call.now} was not at now={after.now}, though nothing "
        "was received from it in between",
        rule=STRICT,
    )


@given(calls(), st.integers(1, 12))
def test_a_shorter_timeout_never_reports_fewer_ranks(
    detector: Detector, call: Call, shorter_by: int
) -> None:
    """Monotone in timeout: whatever is silent longer than t is silent longer than t - d."""
    shorter = Call(
        call.heartbeats, call.world_size, call.start, call.now, max(0, call.timeout - shorter_by)
    )
    detector.holds(
        [call, shorter],
        lambda longer, short: {r.rank for r in longer} <= {r.rank for r in short},
        claim=f"a rank reported with timeout={call.timeout} was not with timeout={shorter.timeout}",
        rule=STRICT,
    )


@given(calls(), st.data())
def test_a_heartbeat_received_now_unreports_its_rank(
    detector: Detector, call: Call, data: st.DataObject
) -> None:
    """A rank just heard has silence 0, which is never more than a timeout >= 0."""
    rank = data.draw(st.integers(0, call.world_size - 1), label="rank")
    fresh = Call(call.heartbeats + beats([(rank, call.now)]), *call.window())
    detector.holds(
        [fresh],
        lambda answer: rank not in {r.rank for r in answer},
        claim=f"rank {rank} was reported though heard at now={call.now}",
        rule=STRICT,
    )
