"""Hung or dead: a rank still beating whose progress has stalled is hung, not stopped."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from kata.checks import expect
from kata.impl import Implementation
from tests.support.detecting import Row
from tests.support.diagnosing import (
    Beat,
    Case,
    HungRow,
    diagnose_oracle,
    diagnose_question,
)

pytestmark = pytest.mark.hung

RULE = (
    "stopped is exactly what detect reports; a rank is hung iff it is not stopped, has been "
    "heard, and now - since > stall_timeout, where since is when its highest progress (heard "
    "by now) was first heard."
)


def _steady(rank: int, until: int, *, stuck_at: int | None = None) -> list[Beat]:
    """A beat every 10 ticks from 0 to `until`, progress one a beat, frozen from `stuck_at`."""
    return [
        Beat(rank, t, t, t // 10 if stuck_at is None or t < stuck_at else stuck_at // 10)
        for t in range(0, until + 1, 10)
    ]


@pytest.mark.rules(2)
def test_a_rank_beating_without_progress_is_hung_not_stopped(impl: Implementation) -> None:
    """Rank 1 beats to the end, but its progress froze at tick 40 (step 4)."""
    beats = _steady(0, 100) + _steady(1, 100, stuck_at=40)
    case = Case(tuple(beats), world_size=2, start=0, now=100, timeout=30, stall_timeout=50)
    want = ((), (HungRow(1, 4, 40, 60),))
    expect(impl, diagnose_question(case), want, rule=RULE)


@pytest.mark.rules(2)
def test_a_stall_of_exactly_stall_timeout_is_not_hung(impl: Implementation) -> None:
    beats = _steady(0, 100, stuck_at=50)
    case = Case(tuple(beats), world_size=1, start=0, now=100, timeout=30, stall_timeout=50)
    expect(impl, diagnose_question(case), ((), ()), rule=RULE)


@pytest.mark.rules(2)
def test_the_stall_counts_from_the_first_beat_with_the_highest_progress(
    impl: Implementation,
) -> None:
    """Progress 7 first heard at 20, heard again at 30, 40, 50: stalled since 20."""
    beats = [Beat(0, 0, 0, 6), *[Beat(0, t, t, 7) for t in (20, 30, 40, 50)]]
    case = Case(tuple(beats), world_size=1, start=0, now=55, timeout=30, stall_timeout=20)
    expect(impl, diagnose_question(case), ((), (HungRow(0, 7, 20, 35),)), rule=RULE)


@pytest.mark.rules(1, 2)
def test_a_stopped_rank_is_stopped_only(impl: Implementation) -> None:
    """Silent and without progress: reported once, as stopped."""
    beats = [Beat(0, 0, 0, 1), Beat(1, 0, 0, 1), Beat(1, 90, 90, 2)]
    case = Case(tuple(beats), world_size=2, start=0, now=100, timeout=30, stall_timeout=20)
    expect(impl, diagnose_question(case), ((Row(0, 0, 100),), ()), rule=RULE)


@pytest.mark.rules(2)
def test_a_rank_never_heard_is_never_hung(impl: Implementation) -> None:
    """Rank 1 has not spoken yet and is within its timeout: nothing is known of its progress."""
    case = Case((Beat(0, 0, 95, 3),), world_size=2, start=80, now=100, timeout=30, stall_timeout=5)
    expect(impl, diagnose_question(case), ((), ()), rule=RULE)


@pytest.mark.rules(3)
def test_a_late_beat_with_lower_progress_changes_nothing(impl: Implementation) -> None:
    """Progress 5 heard at 10; a beat carrying 4 arrives at 60 (sent long before): still 5
    since 10, so hung at 70; the late beat is not progress going back to 4 since 60."""
    beats = (Beat(0, 0, 10, 5), Beat(0, 1, 60, 4))
    case = Case(beats, world_size=1, start=0, now=70, timeout=30, stall_timeout=50)
    expect(impl, diagnose_question(case), ((), (HungRow(0, 5, 10, 60),)), rule=RULE)


@pytest.mark.rules(3)
def test_a_late_beat_logged_between_two_of_the_highest_changes_nothing(
    impl: Implementation,
) -> None:
    """Progress 5 heard at 10 and again at 30; a late beat carrying 4 arrives at 60 but is
    logged between them: still 5 since 10, hung at 70 with a stall of 60, whatever order
    the log lists them in."""
    beats = (Beat(0, 0, 10, 5), Beat(0, 1, 60, 4), Beat(0, 2, 30, 5))
    case = Case(beats, world_size=1, start=0, now=70, timeout=30, stall_timeout=35)
    expect(impl, diagnose_question(case), ((), (HungRow(0, 5, 10, 60),)), rule=RULE)


@pytest.mark.rules(2)
def test_beats_after_now_are_not_heard_yet(impl: Implementation) -> None:
    """Replaying as of 50: the progress heard at 60 does not count yet."""
    beats = (Beat(0, 0, 0, 1), Beat(0, 10, 10, 1), Beat(0, 40, 40, 1), Beat(0, 60, 60, 9))
    case = Case(beats, world_size=1, start=0, now=50, timeout=30, stall_timeout=45)
    expect(impl, diagnose_question(case), ((), (HungRow(0, 1, 0, 50),)), rule=RULE)


@pytest.mark.rules(1)
def test_the_stopped_ranks_are_exactly_detects(impl: Implementation) -> None:
    """Rank 2 never heard and rank 0 silent since 10: both stopped, longest silence first."""
    beats = (Beat(0, 10, 10, 1), Beat(1, 95, 95, 3))
    case = Case(beats, world_size=3, start=0, now=100, timeout=50, stall_timeout=500)
    want = ((Row(2, None, 100), Row(0, 10, 90)), ())
    expect(impl, diagnose_question(case), want, rule=RULE)


beats = st.lists(
    st.builds(Beat, st.integers(0, 2), st.integers(0, 5), st.integers(0, 40), st.integers(0, 4)),
    max_size=12,
)


@pytest.mark.rules(1, 2, 3, 4)
@given(beats, st.integers(0, 45), st.integers(0, 20), st.integers(0, 20))
def test_any_small_case_matches_the_oracle(
    impl: Implementation, heard: list[Beat], now: int, timeout: int, stall: int
) -> None:
    """Three ranks, ticks 0 to 45: the contract read literally, one rank at a time."""
    case = Case(tuple(heard), world_size=3, start=0, now=now, timeout=timeout, stall_timeout=stall)
    expect(impl, diagnose_question(case), diagnose_oracle(case), rule=RULE)
