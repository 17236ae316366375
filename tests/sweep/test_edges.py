"""Zero-length intervals, the horizon's and buckets' edges, an empty log, a shifted clock."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tests.support.sweeping import (
    Span,
    Sweeper,
    as_peak,
    as_windows,
    check_windows,
    fail,
    horizons,
    logs,
)

pytestmark = pytest.mark.sweep_edges

ZERO = "a zero-length interval [t, t) is busy at no instant: it neither splits a window nor counts."


def test_a_zero_length_interval_splits_no_idle_window(idle_windows: Sweeper) -> None:
    check_windows(idle_windows, [Span(0, "probe", 3, 3)], [(0, 10)], ZERO, horizon=(0, 10))


def test_a_zero_length_interval_inside_a_busy_one_splits_nothing(idle_windows: Sweeper) -> None:
    spans = [Span(0, "a", 2, 6), Span(1, "probe", 4, 4)]
    check_windows(idle_windows, spans, [(0, 2), (6, 10)], ZERO, horizon=(0, 10))


def test_a_zero_length_interval_is_never_the_peak(peak_concurrency: Sweeper) -> None:
    spans = [Span(0, "a", 2, 6), Span(1, "probe", 4, 4)]
    got = as_peak(peak_concurrency(spans, horizon=(0, 10)))
    if got != (1, (2, 6)):
        fail(peak_concurrency.describe(spans, {"horizon": (0, 10)}), str(got), "(1, (2, 6))", ZERO)


def test_a_zero_length_interval_overlaps_nothing(overlapping_jobs: Sweeper) -> None:
    spans = [Span(0, "a", 2, 6), Span(1, "probe", 4, 4)]
    got = list(map(tuple, overlapping_jobs(spans)))
    if got:
        fail(overlapping_jobs.describe(spans, {}), str(got), "[]", ZERO)


def test_intervals_are_clipped_to_the_horizon(idle_windows: Sweeper, utilization: Sweeper) -> None:
    """Busy time outside the horizon counts for nothing inside it."""
    spans = [Span(0, "a", 0, 4), Span(1, "b", 8, 20)]
    check_windows(idle_windows, spans, [(4, 8)], horizon=(2, 10))
    got = utilization(spans, gpus=2, horizon=(2, 10), bucket=4)
    want = [Fraction(2, 8), Fraction(2, 8)]
    if list(got) != want:
        call = utilization.describe(spans, {"gpus": 2, "horizon": (2, 10), "bucket": 4})
        fail(
            call,
            str(got),
            str(want),
            "clip each interval to the horizon; buckets start at horizon.start.",
        )


def test_an_interval_crossing_bucket_edges_is_split_between_them(utilization: Sweeper) -> None:
    """[3, 9) on one of two GPUs, buckets of 4: 1 tick, 4 ticks, 1 tick."""
    spans = [Span(0, "a", 3, 9)]
    got = utilization(spans, gpus=2, horizon=(0, 12), bucket=4)
    want = [Fraction(1, 8), Fraction(4, 8), Fraction(1, 8)]
    if list(got) != want:
        call = utilization.describe(spans, {"gpus": 2, "horizon": (0, 12), "bucket": 4})
        fail(
            call,
            str(got),
            str(want),
            "split an interval's busy time at every bucket edge it crosses.",
        )


def test_an_empty_log_is_idle_over_the_whole_horizon(
    idle_windows: Sweeper,
    utilization: Sweeper,
    overlapping_jobs: Sweeper,
    peak_concurrency: Sweeper,
) -> None:
    check_windows(idle_windows, [], [(0, 10)], horizon=(0, 10))
    got = list(utilization([], gpus=4, horizon=(0, 10), bucket=5))
    if got != [0, 0]:
        fail(
            utilization.describe([], {"gpus": 4, "horizon": (0, 10), "bucket": 5}),
            str(got),
            "[0, 0]",
            "an empty log is 0% busy in every bucket.",
        )
    if list(overlapping_jobs([])) != []:
        fail(
            overlapping_jobs.describe([], {}), str(overlapping_jobs([])), "[]", "no jobs, no pairs."
        )
    peak = as_peak(peak_concurrency([], horizon=(0, 10)))
    if peak != (0, (0, 10)):
        fail(
            peak_concurrency.describe([], {"horizon": (0, 10)}),
            str(peak),
            "(0, (0, 10))",
            "with nothing busy, the peak is 0 GPUs over the whole horizon.",
        )


@given(logs, horizons, st.integers(0, 10**12))
def test_shifting_every_time_shifts_every_window_by_the_same(
    idle_windows: Sweeper,
    peak_concurrency: Sweeper,
    spans: list[Span],
    horizon: tuple[int, int],
    shift: int,
) -> None:
    """Only differences of times matter: when the clock started is arbitrary."""
    moved = [s._replace(start=s.start + shift, end=s.end + shift) for s in spans]
    later = (horizon[0] + shift, horizon[1] + shift)
    want = [(a + shift, b + shift) for a, b in as_windows(idle_windows(spans, horizon=horizon))]
    got = as_windows(idle_windows(moved, horizon=later))
    if got != want:
        fail(
            idle_windows.describe(moved, {"horizon": later}),
            str(got),
            str(want),
            f"shifting every time by {shift} must shift every window by {shift}.",
        )
    busy, (start, end) = as_peak(peak_concurrency(spans, horizon=horizon))
    want_peak = (busy, (start + shift, end + shift))
    got_peak = as_peak(peak_concurrency(moved, horizon=later))
    if got_peak != want_peak:
        fail(
            peak_concurrency.describe(moved, {"horizon": later}),
            str(got_peak),
            str(want_peak),
            f"shifting every time by {shift} must shift the peak's window by {shift}.",
        )
