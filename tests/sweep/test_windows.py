"""Idle and underused windows: the maximal runs of time with fewer than k GPUs busy."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tests.support.sweeping import (
    GPUS,
    Span,
    Sweeper,
    as_windows,
    check_windows,
    fail,
    horizons,
    logs,
    underused_oracle,
)

pytestmark = pytest.mark.sweep_windows


def test_idle_windows_of_a_small_cluster(idle_windows: Sweeper) -> None:
    """Two GPUs: idle before 2, between 6 and 8 (GPU 1 overlaps GPU 0's end), after 12."""
    spans = [Span(0, "a", 2, 6), Span(1, "b", 4, 6), Span(0, "c", 8, 12)]
    check_windows(idle_windows, spans, [(0, 2), (6, 8), (12, 14)], horizon=(0, 14))


def test_underused_windows_count_busy_gpus_not_intervals(underused_windows: Sweeper) -> None:
    """Two jobs on one GPU make one busy GPU: below 2 all along."""
    spans = [Span(0, "a", 0, 6), Span(0, "b", 2, 8)]
    check_windows(
        underused_windows,
        spans,
        [(0, 10)],
        "a GPU is busy while any job runs on it: count GPUs, not intervals.",
        horizon=(0, 10),
        below=2,
    )


@given(logs, horizons)
def test_idle_windows_match_the_tick_by_tick_oracle(
    idle_windows: Sweeper, spans: list[Span], horizon: tuple[int, int]
) -> None:
    check_windows(idle_windows, spans, underused_oracle(spans, horizon, 1), horizon=horizon)


@given(logs, horizons, st.integers(1, GPUS + 1))
def test_underused_windows_match_the_tick_by_tick_oracle(
    underused_windows: Sweeper, spans: list[Span], horizon: tuple[int, int], below: int
) -> None:
    check_windows(
        underused_windows,
        spans,
        underused_oracle(spans, horizon, below),
        horizon=horizon,
        below=below,
    )


@given(logs, horizons)
def test_idle_windows_and_the_busy_union_partition_the_horizon(
    idle_windows: Sweeper, spans: list[Span], horizon: tuple[int, int]
) -> None:
    """Every instant of the horizon is idle or busy, never both, never neither."""
    idle = {
        t
        for start, end in as_windows(idle_windows(spans, horizon=horizon))
        for t in range(start, end)
    }
    busy = {t for s in spans for t in range(s.start, s.end) if horizon[0] <= t < horizon[1]}
    if idle & busy or idle | busy != set(range(*horizon)):
        fail(
            idle_windows.describe(spans, {"horizon": horizon}),
            f"idle ticks {sorted(idle)}",
            f"the complement of the busy ticks {sorted(busy)} in {horizon}",
            "idle windows and busy intervals must partition the horizon exactly.",
        )


@given(logs, horizons, st.permutations(range(10)))
def test_the_order_of_the_log_changes_nothing(
    idle_windows: Sweeper, spans: list[Span], horizon: tuple[int, int], order: list[int]
) -> None:
    shuffled = [spans[i] for i in order if i < len(spans)]
    want, got = (
        as_windows(idle_windows(spans, horizon=horizon)),
        as_windows(idle_windows(shuffled, horizon=horizon)),
    )
    if want != got:
        fail(
            idle_windows.describe(shuffled, {"horizon": horizon}),
            str(got),
            str(want),
            "the answer must not depend on the order of the log: sort the endpoints.",
        )
