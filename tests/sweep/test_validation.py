"""Every query function of the sweep refuses intervals and parameters that cannot be right."""

from __future__ import annotations

from typing import Any

import pytest

from tests.support.sweeping import Span, Sweep, query

pytestmark = [pytest.mark.sweep_validation, pytest.mark.rules(9)]

QUERIES: dict[str, dict[str, Any]] = {
    "idle_windows": {"horizon": (0, 10)},
    "underused_windows": {"horizon": (0, 10), "below": 2},
    "utilization": {"gpus": 4, "horizon": (0, 10), "bucket": 5},
    "overlapping_jobs": {},
    "peak_concurrency": {"horizon": (0, 10)},
}
BAD_INTERVALS = {
    "an interval that ends before it starts": [Span(0, "a", 5, 3)],
    "a negative time": [Span(0, "a", -2, 3)],
    "a negative GPU": [Span(-1, "a", 1, 3)],
    "a bad interval after good ones": [Span(0, "a", 0, 4), Span(1, "b", 2, 6), Span(2, "c", 9, 8)],
    "a bad interval outside the horizon": [Span(0, "a", 40, 30)],
}


@pytest.mark.parametrize("name", QUERIES)
@pytest.mark.parametrize("case", BAD_INTERVALS)
def test_impossible_intervals_raise_value_error_in_every_function(
    sweep: Sweep, name: str, case: str
) -> None:
    sweep.refuses(query(name, BAD_INTERVALS[case], **QUERIES[name]), case)


@pytest.mark.parametrize(
    ("spans", "kwargs", "problem"),
    [
        (
            [Span(4, "a", 0, 3)],
            {"gpus": 4, "horizon": (0, 10), "bucket": 5},
            "a GPU outside the cluster",
        ),
        ([Span(0, "a", 0, 3)], {"gpus": 4, "horizon": (0, 10), "bucket": 0}, "a bucket of width 0"),
        ([Span(0, "a", 0, 3)], {"gpus": 4, "horizon": (0, 10), "bucket": -5}, "a negative bucket"),
        (
            [Span(0, "a", 0, 3)],
            {"gpus": 0, "horizon": (0, 10), "bucket": 5},
            "a cluster of no GPUs",
        ),
        ([], {"gpus": 0, "horizon": (0, 10), "bucket": 5}, "no GPUs, even with an empty log"),
        ([], {"gpus": 4, "horizon": (0, 10), "bucket": 0}, "a bucket of 0, even with an empty log"),
        (
            [],
            {"gpus": 4, "horizon": (5, 5), "bucket": 0},
            "a bucket of 0, even in an empty horizon",
        ),
    ],
)
def test_impossible_utilization_questions_raise_value_error(
    sweep: Sweep, spans: list[Span], kwargs: dict[str, Any], problem: str
) -> None:
    sweep.refuses(query("utilization", spans, **kwargs), problem)
