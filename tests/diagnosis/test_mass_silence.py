"""Mass silence: many ranks falling silent within one window is one collector fault."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from kata.checks import expect
from kata.impl import Implementation
from tests.support.detecting import Row
from tests.support.diagnosing import Report, guard_oracle, guard_question

pytestmark = pytest.mark.mass_silence

RULE = (
    "a rank's silence began at last_heard (start if never heard); the ranks whose silences "
    "began within `window` ticks of each other (max - min <= window: the densest such group, "
    "the earliest if several) form the fault when there are more than fraction * world_size "
    "of them and at least two; the rest of the report stays, in its order."
)
QUARTER = Fraction(1, 4)


def _silent(*ranks: int, since: int, now: int = 10_000) -> tuple[Row, ...]:
    return tuple(Row(r, since + r % 7, now - since - r % 7) for r in ranks)


@pytest.mark.rules(9)
def test_a_collector_stall_is_one_fault_not_many_deaths(impl: Implementation) -> None:
    """Five of eight ranks fell silent within 6 ticks: a collector fault (5 > 8/4)."""
    report = Report(_silent(0, 1, 2, 3, 4, since=9_000), 8, 0, 1_000, QUARTER)
    want = ((), ((0, 1, 2, 3, 4), (9_000, 9_004)))
    expect(impl, guard_question(report), want, rule=RULE)


@pytest.mark.rules(9)
def test_exactly_the_fraction_is_not_a_fault(impl: Implementation) -> None:
    """Two of eight ranks is a quarter, not more than a quarter: both reported."""
    report = Report(_silent(0, 1, since=9_000), 8, 0, 1_000, QUARTER)
    expect(impl, guard_question(report), (report.stopped, None), rule=RULE)


@pytest.mark.rules(8)
def test_the_window_includes_its_edge(impl: Implementation) -> None:
    """Silences beginning 1,000 ticks apart are within a window of 1,000."""
    stopped = (Row(0, 5_000, 5_000), Row(1, 5_500, 4_500), Row(2, 6_000, 4_000))
    report = Report(stopped, 4, 0, 1_000, QUARTER)
    expect(impl, guard_question(report), ((), ((0, 1, 2), (5_000, 6_000))), rule=RULE)


@pytest.mark.rules(8)
def test_silences_too_far_apart_are_separate_deaths(impl: Implementation) -> None:
    stopped = (Row(0, 5_000, 5_000), Row(1, 6_001, 3_999), Row(2, 7_002, 2_998))
    report = Report(stopped, 4, 0, 1_000, QUARTER)
    expect(impl, guard_question(report), (stopped, None), rule=RULE)


@pytest.mark.rules(7)
def test_ranks_never_heard_fell_silent_at_start(impl: Implementation) -> None:
    """Three ranks never heard since start 100, a fourth heard at 150: one window of 50."""
    stopped = (Row(1, None, 900), Row(2, None, 900), Row(3, None, 900), Row(0, 150, 850))
    report = Report(stopped, 8, 100, 50, QUARTER)
    expect(impl, guard_question(report), ((), ((0, 1, 2, 3), (100, 150))), rule=RULE)


@pytest.mark.rules(8)
def test_the_densest_window_is_the_fault(impl: Implementation) -> None:
    """Three silences at 100-110 and four at 500-520, window 50, world 8: the four are the
    fault; the three stay reported (one fault at a time, the densest)."""
    early = (Row(0, 100, 900), Row(1, 105, 895), Row(2, 110, 890))
    late = (Row(3, 500, 500), Row(4, 505, 495), Row(5, 510, 490), Row(6, 520, 480))
    report = Report(early + late, 8, 0, 50, QUARTER)
    expect(impl, guard_question(report), (early, ((3, 4, 5, 6), (500, 520))), rule=RULE)


@pytest.mark.rules(7)
def test_a_silence_that_began_at_tick_zero_is_dated_at_zero(impl: Implementation) -> None:
    """start -10: ranks 0 and 1 were last heard at tick 0, rank 2 never: the stall began at 0
    for ranks 0 and 1 (a window of 0 holds them), while rank 2 dates from -10."""
    report = Report((Row(0, 0, 20), Row(1, 0, 20), Row(2, None, 30)), 3, -10, 0, Fraction(1, 2))
    want = ((Row(2, None, 30),), ((0, 1), (0, 0)))
    expect(impl, guard_question(report), want, rule=RULE)


@pytest.mark.rules(9)
def test_a_float_fraction_is_taken_at_its_binary_value(impl: Implementation) -> None:
    """0.3 is a little less than 3/10 in binary, so 3 ranks of 10 are more than 0.3 * 10: a
    fault. Read as the decimal 3/10 (or multiplied in floats, 3.0000000000000004), 3 is not
    more, and the stall would pass for three deaths."""
    report = Report(_silent(0, 1, 2, since=9_000), 10, 0, 1_000, 0.3)
    want = ((), ((0, 1, 2), (9_000, 9_002)))
    expect(impl, guard_question(report), want, rule=RULE)


@pytest.mark.rules(8)
def test_of_equally_dense_groups_the_earliest_is_the_fault(impl: Implementation) -> None:
    """Ranks 0-2 fell silent at 1,000-1,002, ranks 3-5 at 5,000-5,002: as dense; the fault is
    the earlier group, and the later one stays in the report."""
    early = tuple(Row(r, 1_000 + r, 9_000 - r) for r in (0, 1, 2))
    late = tuple(Row(r, 5_000 + r - 3, 5_003 - r) for r in (3, 4, 5))
    report = Report((*early, *late), 20, 0, 10, Fraction(1, 10))
    want = (late, ((0, 1, 2), (1_000, 1_002)))
    expect(impl, guard_question(report), want, rule=RULE)


@pytest.mark.rules(7, 8, 9)
@given(
    st.lists(st.tuples(st.integers(0, 9), st.none() | st.integers(0, 30)), max_size=10),
    st.integers(0, 15),
    st.sampled_from([Fraction(1, 10), Fraction(1, 4), Fraction(1, 2), Fraction(1)]),
)
def test_any_report_matches_the_oracle(
    impl: Implementation, silent: list[tuple[int, int | None]], window: int, fraction: Fraction
) -> None:
    """Ten ranks, silences beginning at ticks 0 to 30: every window tried."""
    ranks = dict(silent)  # one row per rank
    stopped = tuple(Row(r, t, 100 - (0 if t is None else t)) for r, t in ranks.items())
    report = Report(stopped, 10, 0, window, fraction)
    expect(impl, guard_question(report), guard_oracle(report), rule=RULE)


@pytest.mark.rules(8)
def test_the_fault_is_the_dense_window_and_nothing_after_it(impl: Implementation) -> None:
    """Rank 0 fell silent at 100, ranks 1, 2 and 5 at 300 to 305, ranks 3 and 4 alone at 600
    and 900, window 10, world 8: the fault is ranks 1, 2 and 5 (more than a quarter of 8),
    counted from where their window starts; the lone silences, after it too, stay deaths."""
    alone = (Row(0, 100, 900), Row(3, 600, 400), Row(4, 900, 100))
    dense = (Row(1, 300, 700), Row(2, 303, 697), Row(5, 305, 695))
    report = Report((*alone, *dense), 8, 0, 10, QUARTER)
    expect(impl, guard_question(report), (alone, ((1, 2, 5), (300, 305))), rule=RULE)
