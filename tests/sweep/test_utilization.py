"""Utilization per bucket: busy GPU-time / (GPUs x bucket width), exactly."""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tests.support.strategies import horizons, logs
from tests.support.sweeping import GPUS, Span, Sweep, query

pytestmark = pytest.mark.sweep_utilization

SHARES = (
    "bucket i is [horizon.start + i*bucket, ... + bucket), cut at horizon.end; its share is "
    "busy GPU-time in it / (gpus x its width), an exact Fraction in a list; a GPU busy with "
    "two jobs at once counts once."
)


@pytest.mark.rules(5)
def test_a_third_is_exactly_a_third(sweep: Sweep) -> None:
    """One of three GPUs busy all along: 1/3, which no float is."""
    sweep.check(
        "utilization",
        [Span(0, "a", 0, 6)],
        (Fraction(1, 3),),
        rule=SHARES,
        gpus=3,
        horizon=(0, 6),
        bucket=6,
    )


@pytest.mark.rules(3, 5)
def test_two_jobs_on_one_gpu_count_it_once(sweep: Sweep) -> None:
    spans = [Span(0, "a", 0, 4), Span(0, "b", 2, 6)]
    want = (Fraction(1, 2), Fraction(1, 4))
    sweep.check("utilization", spans, want, rule=SHARES, gpus=2, horizon=(0, 8), bucket=4)


@pytest.mark.rules(5)
def test_a_short_last_bucket_is_divided_by_its_own_width(sweep: Sweep) -> None:
    """Horizon [0, 10) in buckets of 4: the last is [8, 10), two ticks wide."""
    want = (Fraction(1), Fraction(1), Fraction(1))
    sweep.check(
        "utilization", [Span(0, "a", 0, 10)], want, rule=SHARES, gpus=1, horizon=(0, 10), bucket=4
    )


@pytest.mark.rules(5)
def test_buckets_start_at_the_horizons_start(sweep: Sweep) -> None:
    """Horizon [3, 11) in buckets of 4: [3, 7) and [7, 11), not [0, 4), [4, 8), ..."""
    spans = [Span(0, "a", 3, 5)]
    want = (Fraction(1, 2), Fraction(0))
    sweep.check("utilization", spans, want, rule=SHARES, gpus=1, horizon=(3, 11), bucket=4)


@pytest.mark.rules(5)
@given(logs, horizons, st.integers(1, 7))
def test_utilization_matches_the_tick_by_tick_oracle(
    sweep: Sweep, spans: list[Span], horizon: tuple[int, int], bucket: int
) -> None:
    sweep.check("utilization", spans, rule=SHARES, gpus=GPUS, horizon=horizon, bucket=bucket)


@pytest.mark.rules(5)
@given(logs, horizons, st.integers(1, 7))
def test_buckets_add_up_to_the_busy_gpu_time_in_the_horizon(
    sweep: Sweep, spans: list[Span], horizon: tuple[int, int], bucket: int
) -> None:
    """Nothing is lost or counted twice at bucket edges."""
    edges = [*range(horizon[0], horizon[1], bucket), horizon[1]]
    busy = sum(len({s.gpu for s in spans if s.start <= t < s.end}) for t in range(*horizon))

    def adds_up(shares: tuple[Fraction, ...]) -> bool:
        widths = [right - left for left, right in itertools.pairwise(edges)]
        total = sum(s * GPUS * w for s, w in zip(shares, widths, strict=False))
        return len(shares) == len(widths) and total == busy

    sweep.holds(
        [query("utilization", spans, gpus=GPUS, horizon=horizon, bucket=bucket)],
        adds_up,
        claim=f"{len(edges) - 1} buckets must add up to the busy GPU-time {busy}",
        rule=SHARES,
    )
