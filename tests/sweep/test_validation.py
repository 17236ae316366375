"""The sweep's queries refuse intervals and parameters that cannot be right."""

from __future__ import annotations

import pytest

from tests.support.raising import expect_value_error
from tests.support.sweeping import Span, Sweeper

pytestmark = pytest.mark.validation


@pytest.mark.parametrize(
    ("spans", "problem"),
    [
        ([Span(0, "a", 5, 3)], "an interval that ends before it starts"),
        ([Span(0, "a", -2, 3)], "a negative time"),
    ],
)
def test_impossible_intervals_raise_value_error(
    idle_windows: Sweeper, spans: list[Span], problem: str
) -> None:
    expect_value_error(
        lambda: idle_windows.raw(spans, horizon=(0, 10)),
        idle_windows.describe(spans, {"horizon": (0, 10)}),
        problem,
    )


@pytest.mark.parametrize(
    ("spans", "gpus", "bucket", "problem"),
    [
        ([Span(4, "a", 0, 3)], 4, 5, "a GPU outside the cluster"),
        ([Span(0, "a", 0, 3)], 4, 0, "a bucket of width 0"),
        ([Span(0, "a", 0, 3)], 0, 5, "a cluster of no GPUs"),
    ],
)
def test_impossible_utilization_questions_raise_value_error(
    utilization: Sweeper, spans: list[Span], gpus: int, bucket: int, problem: str
) -> None:
    kwargs = {"gpus": gpus, "horizon": (0, 10), "bucket": bucket}
    expect_value_error(
        lambda: utilization.raw(spans, **kwargs), utilization.describe(spans, kwargs), problem
    )
