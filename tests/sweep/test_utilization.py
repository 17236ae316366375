"""Utilization per bucket: busy GPU-time / (GPUs x bucket width), exactly."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tests.support.sweeping import GPUS, Span, Sweeper, fail, horizons, logs, utilization_oracle

pytestmark = pytest.mark.sweep_utilization

EXACT = "utilization is a ratio of integers: return it exactly (Fraction), never a float."


def ask(utilization: Sweeper, spans: list[Span], **kwargs: Any) -> list[Any]:
    got = list(utilization(spans, **kwargs))
    want = utilization_oracle(spans, kwargs["gpus"], kwargs["horizon"], kwargs["bucket"])
    floats = [x for x in got if isinstance(x, float)]
    if got != want or floats:
        fail(
            utilization.describe(spans, kwargs),
            str(got),
            str(want),
            EXACT
            if floats
            else "each bucket is busy GPU-time inside it / (gpus x its width); a GPU busy with two "
            "jobs at once counts once.",
        )
    return got


def test_a_third_is_exactly_a_third(utilization: Sweeper) -> None:
    """One of three GPUs busy all along: 1/3, which no float is."""
    ask(utilization, [Span(0, "a", 0, 6)], gpus=3, horizon=(0, 6), bucket=6)


def test_two_jobs_on_one_gpu_count_it_once(utilization: Sweeper) -> None:
    ask(utilization, [Span(0, "a", 0, 4), Span(0, "b", 2, 6)], gpus=2, horizon=(0, 8), bucket=4)


def test_a_short_last_bucket_is_divided_by_its_own_width(utilization: Sweeper) -> None:
    """Horizon [0, 10) in buckets of 4: the last is [8, 10), two ticks wide."""
    ask(utilization, [Span(0, "a", 0, 10)], gpus=1, horizon=(0, 10), bucket=4)


@given(logs, horizons, st.integers(1, 7))
def test_utilization_matches_the_tick_by_tick_oracle(
    utilization: Sweeper, spans: list[Span], horizon: tuple[int, int], bucket: int
) -> None:
    ask(utilization, spans, gpus=GPUS, horizon=horizon, bucket=bucket)


@given(logs, horizons, st.integers(1, 7))
def test_buckets_add_up_to_the_busy_gpu_time_in_the_horizon(
    utilization: Sweeper, spans: list[Span], horizon: tuple[int, int], bucket: int
) -> None:
    """Nothing is lost or counted twice at bucket edges."""
    shares = list(utilization(spans, gpus=GPUS, horizon=horizon, bucket=bucket))
    edges = [*range(horizon[0], horizon[1], bucket), horizon[1]]
    total = sum(
        Fraction(s) * GPUS * (right - left)
        for s, left, right in zip(shares, edges, edges[1:], strict=False)
    )
    busy = sum(len({s.gpu for s in spans if s.start <= t < s.end}) for t in range(*horizon))
    if total != busy or len(shares) != len(edges) - 1:
        fail(
            utilization.describe(spans, {"gpus": GPUS, "horizon": horizon, "bucket": bucket}),
            f"{shares} (GPU-time {total})",
            f"{len(edges) - 1} buckets adding up to GPU-time {busy}",
            "busy time crossing a bucket edge must be split between the buckets, not lost or "
            "doubled.",
        )
