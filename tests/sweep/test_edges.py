"""Zero-length intervals, the horizon's and buckets' edges, an empty log, a shifted clock."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tests.support.strategies import horizons, logs
from tests.support.sweeping import Span, Sweep, query

pytestmark = pytest.mark.sweep_edges

ZERO = "a zero-length interval [t, t) is busy at no instant: it neither splits a window nor counts."
HORIZON = (
    "answers cover exactly the horizon [start, end): busy time outside it counts for nothing, "
    "an interval ending at horizon.end ends with it, buckets start at horizon.start and the "
    "last is cut at horizon.end."
)
EMPTY = "an empty log, or an empty horizon, is a valid question with an empty or idle answer."


@pytest.mark.rules(2)
def test_a_zero_length_interval_splits_no_idle_window(sweep: Sweep) -> None:
    sweep.check("idle_windows", [Span(0, "probe", 3, 3)], ((0, 10),), rule=ZERO, horizon=(0, 10))


@pytest.mark.rules(2)
def test_a_zero_length_interval_inside_a_busy_one_splits_nothing(sweep: Sweep) -> None:
    spans = [Span(0, "a", 2, 6), Span(1, "probe", 4, 4)]
    sweep.check("idle_windows", spans, ((0, 2), (6, 10)), rule=ZERO, horizon=(0, 10))


@pytest.mark.rules(2, 7)
def test_a_zero_length_interval_is_never_the_peak(sweep: Sweep) -> None:
    spans = [Span(0, "a", 2, 6), Span(1, "probe", 4, 4)]
    sweep.check("peak_concurrency", spans, (1, (2, 6)), rule=ZERO, horizon=(0, 10))


@pytest.mark.rules(2, 7)
def test_a_zero_length_interval_alone_leaves_the_peak_at_zero(sweep: Sweep) -> None:
    sweep.check(
        "peak_concurrency", [Span(0, "probe", 4, 4)], (0, (0, 10)), rule=ZERO, horizon=(0, 10)
    )


@pytest.mark.rules(2, 6)
def test_a_zero_length_interval_overlaps_nothing(sweep: Sweep) -> None:
    spans = [Span(0, "a", 2, 6), Span(1, "probe", 4, 4)]
    sweep.check("overlapping_jobs", spans, (), rule=ZERO)


@pytest.mark.rules(2, 5)
def test_a_zero_length_interval_adds_no_utilization(sweep: Sweep) -> None:
    spans = [Span(0, "probe", 4, 4)]
    want = (Fraction(0), Fraction(0))
    sweep.check("utilization", spans, want, rule=ZERO, gpus=1, horizon=(0, 10), bucket=5)


@pytest.mark.rules(4)
def test_intervals_are_clipped_to_the_horizon(sweep: Sweep) -> None:
    """Busy time outside the horizon counts for nothing inside it."""
    spans = [Span(0, "a", 0, 4), Span(1, "b", 8, 20)]
    sweep.check("idle_windows", spans, ((4, 8),), rule=HORIZON, horizon=(2, 10))
    sweep.check(
        "utilization",
        spans,
        (Fraction(2, 8), Fraction(2, 8)),
        rule=HORIZON,
        gpus=2,
        horizon=(2, 10),
        bucket=4,
    )


@pytest.mark.rules(4)
def test_an_interval_ending_at_the_horizons_end(sweep: Sweep) -> None:
    """[6, 10) in the horizon [0, 10): busy to the very end, so idle only before 6."""
    spans = [Span(0, "a", 6, 10)]
    sweep.check("idle_windows", spans, ((0, 6),), rule=HORIZON, horizon=(0, 10))
    sweep.check("peak_concurrency", spans, (1, (6, 10)), rule=HORIZON, horizon=(0, 10))
    sweep.check(
        "utilization",
        spans,
        (Fraction(0), Fraction(4, 5)),
        rule=HORIZON,
        gpus=1,
        horizon=(0, 10),
        bucket=5,
    )


@pytest.mark.rules(4, 5)
def test_an_interval_starting_at_the_horizons_end_counts_for_nothing(sweep: Sweep) -> None:
    spans = [Span(0, "a", 10, 15)]
    sweep.check("idle_windows", spans, ((0, 10),), rule=HORIZON, horizon=(0, 10))
    sweep.check("peak_concurrency", spans, (0, (0, 10)), rule=HORIZON, horizon=(0, 10))


@pytest.mark.rules(4, 5)
def test_an_interval_ending_at_the_horizons_start_counts_for_nothing(sweep: Sweep) -> None:
    spans = [Span(0, "a", 0, 5)]
    sweep.check("idle_windows", spans, ((5, 9),), rule=HORIZON, horizon=(5, 9))
    sweep.check("peak_concurrency", spans, (0, (5, 9)), rule=HORIZON, horizon=(5, 9))


@pytest.mark.rules(7)
def test_the_peak_held_to_the_horizons_end(sweep: Sweep) -> None:
    """The highest count is reached last and lasts until the horizon ends."""
    spans = [Span(0, "a", 0, 20), Span(1, "b", 7, 20)]
    sweep.check("peak_concurrency", spans, (2, (7, 10)), rule=HORIZON, horizon=(0, 10))


@pytest.mark.rules(5)
def test_an_interval_crossing_bucket_edges_is_split_between_them(sweep: Sweep) -> None:
    """[3, 9) on one of two GPUs, buckets of 4: 1 tick, 4 ticks, 1 tick."""
    want = (Fraction(1, 8), Fraction(4, 8), Fraction(1, 8))
    sweep.check(
        "utilization", [Span(0, "a", 3, 9)], want, rule=HORIZON, gpus=2, horizon=(0, 12), bucket=4
    )


@pytest.mark.rules(5)
def test_buckets_that_divide_the_horizon_leave_no_empty_bucket(sweep: Sweep) -> None:
    """[0, 8) in buckets of 4 is two buckets, not three."""
    want = (Fraction(1), Fraction(1))
    sweep.check(
        "utilization", [Span(0, "a", 0, 8)], want, rule=HORIZON, gpus=1, horizon=(0, 8), bucket=4
    )


@pytest.mark.rules(5)
def test_a_bucket_wider_than_the_horizon_is_one_short_bucket(sweep: Sweep) -> None:
    want = (Fraction(1, 3),)
    sweep.check(
        "utilization", [Span(0, "a", 2, 3)], want, rule=HORIZON, gpus=1, horizon=(1, 4), bucket=10
    )


@pytest.mark.rules(4)
def test_an_empty_log_is_idle_over_the_whole_horizon(sweep: Sweep) -> None:
    sweep.check("idle_windows", [], ((0, 10),), rule=EMPTY, horizon=(0, 10))
    sweep.check(
        "utilization", [], (Fraction(0), Fraction(0)), rule=EMPTY, gpus=4, horizon=(0, 10), bucket=5
    )
    sweep.check("overlapping_jobs", [], (), rule=EMPTY)
    sweep.check("peak_concurrency", [], (0, (0, 10)), rule=EMPTY, horizon=(0, 10))


@pytest.mark.rules(4, 5, 7)
def test_an_empty_horizon_has_no_window_no_bucket_and_a_zero_peak(sweep: Sweep) -> None:
    spans = [Span(0, "a", 0, 10)]
    sweep.check("idle_windows", spans, (), rule=EMPTY, horizon=(5, 5))
    sweep.check("underused_windows", spans, (), rule=EMPTY, horizon=(5, 5), below=3)
    sweep.check("utilization", spans, (), rule=EMPTY, gpus=1, horizon=(5, 5), bucket=2)
    sweep.check("peak_concurrency", spans, (0, (5, 5)), rule=EMPTY, horizon=(5, 5))


@pytest.mark.rules(4)
@given(logs, horizons, st.integers(0, 10**12))
def test_shifting_every_time_shifts_every_window_by_the_same(
    sweep: Sweep, spans: list[Span], horizon: tuple[int, int], shift: int
) -> None:
    """Only differences of times matter: when the clock started is arbitrary."""
    moved = [s._replace(start=s.start + shift, end=s.end + shift) for s in spans]
    later = (horizon[0] + shift, horizon[1] + shift)

    def shifted(
        windows: tuple[tuple[int, int], ...], moved_windows: tuple[tuple[int, int], ...]
    ) -> bool:
        return moved_windows == tuple((a + shift, b + shift) for a, b in windows)

    sweep.holds(
        [
            query("idle_windows", spans, horizon=horizon),
            query("idle_windows", moved, horizon=later),
        ],
        shifted,
        claim=f"shifting every time by {shift} must shift every idle window by {shift}",
        rule=HORIZON,
    )
    sweep.holds(
        [
            query("peak_concurrency", spans, horizon=horizon),
            query("peak_concurrency", moved, horizon=later),
        ],
        lambda peak, moved_peak: moved_peak == (peak[0], (peak[1][0] + shift, peak[1][1] + shift)),
        claim=f"shifting every time by {shift} must shift the peak's window by {shift}",
        rule=HORIZON,
    )
