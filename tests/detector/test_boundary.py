"""The exact boundary: a rank is reported iff now - last_heard > timeout."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tests.detector.conftest import Detector
from tests.support.detecting import Call, Row, beats
from tests.support.strategies import calls

pytestmark = pytest.mark.boundary

STRICT = "a rank exactly `timeout` late must not be reported: the comparison is strict (>)."
DAY_NS = 86_400 * 10**9


def test_rank_exactly_timeout_late_is_not_reported(detector: Detector) -> None:
    """With timeout = k * interval, at that instant the k-th heartbeat is due, not missed."""
    detector.check(Call(beats([(0, 3)]), 1, 0, 8, 5), expected=[], hint=STRICT)


def test_rank_one_tick_past_timeout_is_reported(detector: Detector) -> None:
    """One tick later the k-th heartbeat is missed: the rank is reported, silence exact."""
    detector.check(Call(beats([(0, 3)]), 1, 0, 9, 5), expected=[Row(0, 3, 6)])


def test_every_small_boundary_case_matches_the_oracle(detector: Detector) -> None:
    """Exhaustively, for one rank: every last_heard, now and timeout on a small grid."""
    for last_heard in range(7):
        for now in range(last_heard, 14):
            for timeout in range(8):
                detector.check(Call(beats([(0, last_heard)]), 1, 0, now, timeout), hint=STRICT)


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
            Call(beats([(0, last_heard)]), 1, start, now, timeout),
            expected=expected,
            hint="integer ticks decide the boundary exactly; float seconds do not.",
        )


@given(calls(), st.integers(0, 20))
def test_once_reported_a_rank_stays_reported_until_it_is_heard(
    detector: Detector, call: Call, later: int
) -> None:
    """Monotone in now: silence only grows while nothing new is received."""
    after = Call(call.heartbeats, call.world_size, call.start, call.now + later, call.timeout)
    before_answer, after_answer = detector.answer(call), detector.answer(after)
    heard_since = {b.rank for b in call.heartbeats if call.now < b.received_at <= after.now}
    dropped = {r.rank for r in before_answer} - heard_since - {r.rank for r in after_answer}
    detector.holds(
        not dropped,
        f"ranks {sorted(dropped)} reported at now={call.now} were not at now={after.now}, "
        "though nothing was received from them in between",
        (call, before_answer),
        (after, after_answer),
    )


@given(calls(), st.integers(1, 12))
def test_a_shorter_timeout_never_reports_fewer_ranks(
    detector: Detector, call: Call, shorter_by: int
) -> None:
    """Monotone in timeout: whatever is silent longer than t is silent longer than t - d."""
    shorter = Call(
        call.heartbeats, call.world_size, call.start, call.now, max(0, call.timeout - shorter_by)
    )
    longer_answer, shorter_answer = detector.answer(call), detector.answer(shorter)
    lost = {r.rank for r in longer_answer} - {r.rank for r in shorter_answer}
    detector.holds(
        not lost,
        f"ranks {sorted(lost)} reported with timeout={call.timeout} were not with the "
        f"shorter timeout={shorter.timeout}",
        (call, longer_answer),
        (shorter, shorter_answer),
    )


@given(calls())
def test_a_heartbeat_received_now_unreports_its_rank(detector: Detector, call: Call) -> None:
    """A rank just heard has silence 0, which is never more than a timeout >= 0."""
    for rank in range(call.world_size):
        fresh = Call(call.heartbeats + beats([(rank, call.now)]), *_window(call))
        answer = detector.answer(fresh)
        detector.holds(
            rank not in {r.rank for r in answer},
            f"rank {rank} was reported though heard at now={call.now}",
            (fresh, answer),
        )


def _window(call: Call) -> tuple[int, int, int, int]:
    return call.world_size, call.start, call.now, call.timeout
