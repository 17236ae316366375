"""Every pair of jobs busy at a common instant, once each, sorted."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tests.support.sweeping import (
    HALF_OPEN,
    Span,
    Sweeper,
    fail,
    logs,
    overlaps_oracle,
    touching_pairs,
)

pytestmark = pytest.mark.sweep_overlaps


def check(overlapping_jobs: Sweeper, spans: list[Span], hint: str = "") -> None:
    got = [tuple(pair) for pair in overlapping_jobs(spans)]
    want = overlaps_oracle(spans)
    extra = set(got) - set(want)
    if extra and extra <= touching_pairs(spans):
        hint = f"{sorted(extra)} only touch: " + HALF_OPEN
    if got != want:
        fail(
            overlapping_jobs.describe(spans, {}),
            str(got),
            str(want),
            hint
            or (
                "pairs (a, b) with a < b, each once, sorted; two jobs overlap when both are "
                "busy at "
                "some instant, on any GPUs."
            ),
        )


def test_jobs_on_different_gpus_overlap_in_time(overlapping_jobs: Sweeper) -> None:
    check(overlapping_jobs, [Span(0, "a", 0, 5), Span(1, "b", 4, 9), Span(2, "c", 9, 12)])


def test_a_job_on_many_gpus_never_overlaps_itself(overlapping_jobs: Sweeper) -> None:
    spans = [Span(gpu, "pretrain", 0, 10) for gpu in range(4)] + [Span(0, "eval", 5, 6)]
    check(
        overlapping_jobs,
        spans,
        "a job running on several GPUs is one job: never pair it with itself.",
    )


def test_each_pair_is_reported_once(overlapping_jobs: Sweeper) -> None:
    spans = [Span(0, "a", 0, 3), Span(1, "b", 1, 2), Span(0, "a", 5, 8), Span(1, "b", 6, 7)]
    check(overlapping_jobs, spans, "a pair that overlaps twice is still one pair: report it once.")


@given(logs)
def test_overlaps_match_the_all_pairs_oracle(overlapping_jobs: Sweeper, spans: list[Span]) -> None:
    check(overlapping_jobs, spans)


@given(logs, st.permutations(range(10)))
def test_the_order_of_the_log_changes_nothing(
    overlapping_jobs: Sweeper, spans: list[Span], order: list[int]
) -> None:
    shuffled = [spans[i] for i in order if i < len(spans)]
    check(overlapping_jobs, shuffled)
