"""Every pair of jobs busy at a common instant, once each, sorted."""

from __future__ import annotations

import pytest
from hypothesis import given

from tests.support.strategies import logs
from tests.support.sweeping import Span, Sweep

pytestmark = [pytest.mark.sweep_overlaps, pytest.mark.rules(6)]

PAIRS = (
    "every pair (a, b), a < b, of distinct jobs busy at a common instant on any GPUs, once "
    "each, sorted, in a list."
)


def test_jobs_on_different_gpus_overlap_in_time(sweep: Sweep) -> None:
    spans = [Span(0, "a", 0, 5), Span(1, "b", 4, 9), Span(2, "c", 9, 12)]
    sweep.check("overlapping_jobs", spans, (("a", "b"),), rule=PAIRS)


def test_a_job_on_many_gpus_never_overlaps_itself(sweep: Sweep) -> None:
    spans = [Span(gpu, "pretrain", 0, 10) for gpu in range(4)] + [Span(0, "eval", 5, 6)]
    sweep.check("overlapping_jobs", spans, (("eval", "pretrain"),), rule=PAIRS)


def test_each_pair_is_reported_once(sweep: Sweep) -> None:
    spans = [Span(0, "a", 0, 3), Span(1, "b", 1, 2), Span(0, "a", 5, 8), Span(1, "b", 6, 7)]
    sweep.check("overlapping_jobs", spans, (("a", "b"),), rule=PAIRS)


def test_pairs_are_sorted_and_each_is_in_order(sweep: Sweep) -> None:
    """The later name listed first in the log: the pair is still (a, b), a < b."""
    spans = [Span(0, "z", 0, 9), Span(1, "m", 1, 3), Span(2, "a", 2, 4)]
    want = (("a", "m"), ("a", "z"), ("m", "z"))
    sweep.check("overlapping_jobs", spans, want, rule=PAIRS)


def test_a_job_inside_another_overlaps_it(sweep: Sweep) -> None:
    """[1, 2) lies wholly inside [0, 10): the short job never outlives the long one."""
    sweep.check(
        "overlapping_jobs",
        [Span(0, "long", 0, 10), Span(1, "short", 1, 2)],
        (("long", "short"),),
        rule=PAIRS,
    )


@given(logs)
def test_overlaps_match_the_all_pairs_oracle(sweep: Sweep, spans: list[Span]) -> None:
    sweep.check("overlapping_jobs", spans, rule=PAIRS)
