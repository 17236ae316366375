"""Idle and underused windows: the maximal runs of time with fewer than k GPUs busy."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tests.support.strategies import horizons, logs
from tests.support.sweeping import GPUS, Span, Sweep, query

pytestmark = pytest.mark.sweep_windows

WINDOWS = (
    "windows are the maximal, nonempty runs of the horizon with fewer than `below` GPUs "
    "busy (idle: none), in time order, as a list of Window(start, end); adjacent runs are "
    "one window; a GPU counts once however many jobs run on it."
)


@pytest.mark.rules(4)
def test_idle_windows_of_a_small_cluster(sweep: Sweep) -> None:
    """Two GPUs: idle before 2, between 6 and 8 (GPU 1 overlaps GPU 0's end), after 12."""
    spans = [Span(0, "a", 2, 6), Span(1, "b", 4, 6), Span(0, "c", 8, 12)]
    sweep.check("idle_windows", spans, ((0, 2), (6, 8), (12, 14)), rule=WINDOWS, horizon=(0, 14))


@pytest.mark.rules(3, 4)
def test_overlapping_intervals_on_one_gpu_leave_no_gap(sweep: Sweep) -> None:
    """[0, 6) and [2, 8) on GPU 0: busy from 0 to 8, however the ends interleave."""
    spans = [Span(0, "a", 0, 6), Span(0, "b", 2, 8)]
    sweep.check("idle_windows", spans, ((8, 10),), rule=WINDOWS, horizon=(0, 10))


@pytest.mark.rules(3, 4)
def test_underused_windows_count_busy_gpus_not_intervals(sweep: Sweep) -> None:
    """Two jobs on one GPU make one busy GPU: below 2 all along."""
    spans = [Span(0, "a", 0, 6), Span(0, "b", 2, 8)]
    sweep.check("underused_windows", spans, ((0, 10),), rule=WINDOWS, horizon=(0, 10), below=2)


@pytest.mark.rules(4)
def test_underused_windows_merge_runs_at_different_counts(sweep: Sweep) -> None:
    """0 busy, then 1, then 0 again, all below 2: one window, not three."""
    spans = [Span(0, "a", 3, 5), Span(1, "b", 7, 12), Span(2, "c", 8, 10)]
    sweep.check(
        "underused_windows", spans, ((0, 8), (10, 14)), rule=WINDOWS, horizon=(0, 14), below=2
    )


@pytest.mark.rules(4)
def test_below_zero_has_no_window_and_below_more_than_the_gpus_is_everything(sweep: Sweep) -> None:
    spans = [Span(0, "a", 0, 4), Span(1, "b", 2, 9)]
    sweep.check("underused_windows", spans, (), rule=WINDOWS, horizon=(0, 10), below=0)
    sweep.check("underused_windows", spans, ((0, 10),), rule=WINDOWS, horizon=(0, 10), below=3)


@pytest.mark.rules(4)
@given(logs, horizons)
def test_idle_windows_match_the_tick_by_tick_oracle(
    sweep: Sweep, spans: list[Span], horizon: tuple[int, int]
) -> None:
    sweep.check("idle_windows", spans, rule=WINDOWS, horizon=horizon)


@pytest.mark.rules(4)
@given(logs, horizons, st.integers(0, GPUS + 1))
def test_underused_windows_match_the_tick_by_tick_oracle(
    sweep: Sweep, spans: list[Span], horizon: tuple[int, int], below: int
) -> None:
    sweep.check("underused_windows", spans, rule=WINDOWS, horizon=horizon, below=below)


@pytest.mark.rules(4)
@given(logs, horizons)
def test_idle_windows_and_the_busy_union_partition_the_horizon(
    sweep: Sweep, spans: list[Span], horizon: tuple[int, int]
) -> None:
    """Every instant of the horizon is idle or busy, never both, never neither."""
    busy = {t for s in spans for t in range(s.start, s.end) if horizon[0] <= t < horizon[1]}

    def partition(windows: tuple[tuple[int, int], ...]) -> bool:
        idle = {t for start, end in windows for t in range(start, end)}
        return not idle & busy and idle | busy == set(range(*horizon))

    sweep.holds(
        [query("idle_windows", spans, horizon=horizon)],
        partition,
        claim=f"idle windows and the busy ticks {sorted(busy)} must partition {horizon}",
        rule=WINDOWS,
    )
