"""Peak concurrency: the most GPUs busy at once, and the first maximal window it held."""

from __future__ import annotations

import pytest
from hypothesis import given

from tests.support.strategies import horizons, logs
from tests.support.sweeping import Span, Sweep

pytestmark = pytest.mark.sweep_peak

PEAK = (
    "the peak is the most GPUs busy at once within the horizon, with the first maximal "
    "window at that count (it ends only when the count drops); nothing busy gives "
    "Peak(0, horizon)."
)


@pytest.mark.rules(7)
def test_the_first_window_at_the_peak_is_reported(sweep: Sweep) -> None:
    """Two GPUs busy over [2, 4) and again over [6, 8): the first."""
    spans = [Span(0, "a", 0, 10), Span(1, "b", 2, 4), Span(1, "c", 6, 8)]
    sweep.check("peak_concurrency", spans, (2, (2, 4)), rule=PEAK, horizon=(0, 10))


@pytest.mark.rules(7)
def test_a_window_at_the_peak_spans_changes_that_keep_the_count(sweep: Sweep) -> None:
    """At 4, GPU 1 hands over to GPU 2: still two busy, one window [2, 8)."""
    spans = [Span(0, "a", 0, 10), Span(1, "b", 2, 4), Span(2, "c", 4, 8)]
    sweep.check("peak_concurrency", spans, (2, (2, 8)), rule=PEAK, horizon=(0, 10))


@pytest.mark.rules(7)
def test_a_window_at_the_peak_spans_a_job_that_changes_gpu_count_once(sweep: Sweep) -> None:
    """Two jobs on GPU 0 then one: GPU 0 stays busy, the peak window goes on."""
    spans = [Span(0, "a", 0, 6), Span(0, "b", 2, 9), Span(1, "c", 1, 9)]
    sweep.check("peak_concurrency", spans, (2, (1, 9)), rule=PEAK, horizon=(0, 10))


@pytest.mark.rules(3, 7)
def test_the_peak_counts_gpus_not_jobs(sweep: Sweep) -> None:
    spans = [Span(0, "a", 0, 5), Span(0, "b", 1, 4), Span(1, "c", 3, 8)]
    sweep.check("peak_concurrency", spans, (2, (3, 5)), rule=PEAK, horizon=(0, 10))


@pytest.mark.rules(7)
@given(logs, horizons)
def test_peak_matches_the_tick_by_tick_oracle(
    sweep: Sweep, spans: list[Span], horizon: tuple[int, int]
) -> None:
    sweep.check("peak_concurrency", spans, rule=PEAK, horizon=horizon)
