"""Peak concurrency: the most GPUs busy at once, and the first maximal window it held."""

from __future__ import annotations

import pytest
from hypothesis import given

from tests.support.sweeping import (
    HALF_OPEN,
    Span,
    Sweeper,
    as_peak,
    fail,
    horizons,
    logs,
    peak_oracle,
    touching_pairs,
)

pytestmark = pytest.mark.sweep_peak


def check(
    peak_concurrency: Sweeper, spans: list[Span], horizon: tuple[int, int], hint: str = ""
) -> None:
    got = as_peak(peak_concurrency(spans, horizon=horizon))
    want = peak_oracle(spans, horizon)
    if got[0] > want[0] and touching_pairs(spans):
        hint = "the peak is too high where intervals touch: " + HALF_OPEN
    if got != want:
        fail(
            peak_concurrency.describe(spans, {"horizon": horizon}),
            str(got),
            str(want),
            hint
            or (
                "the peak is the most GPUs busy at once within the horizon; its window is the "
                "first maximal window at that count."
            ),
        )


def test_the_first_window_at_the_peak_is_reported(peak_concurrency: Sweeper) -> None:
    """Two GPUs busy over [2, 4) and again over [6, 8): the first."""
    spans = [Span(0, "a", 0, 10), Span(1, "b", 2, 4), Span(1, "c", 6, 8)]
    check(peak_concurrency, spans, (0, 10), "report the first window at the peak, and all of it.")


def test_a_window_at_the_peak_spans_changes_that_keep_the_count(peak_concurrency: Sweeper) -> None:
    """At 4, GPU 1 hands over to GPU 2: still two busy, one window [2, 8)."""
    spans = [Span(0, "a", 0, 10), Span(1, "b", 2, 4), Span(2, "c", 4, 8)]
    check(peak_concurrency, spans, (0, 10), "a window at the peak ends only when the count drops.")


@given(logs, horizons)
def test_peak_matches_the_tick_by_tick_oracle(
    peak_concurrency: Sweeper, spans: list[Span], horizon: tuple[int, int]
) -> None:
    check(peak_concurrency, spans, horizon)
