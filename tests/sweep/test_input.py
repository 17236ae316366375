"""The input: any iterable, in any order, read once.

A log streamed from a file is an iterator: a second pass over it sees
nothing.  And the answer depends on the set of intervals, never on the
order they are listed in.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tests.support.strategies import horizons, logs
from tests.support.sweeping import UNTIL, Ev, Span, Sweep, query

pytestmark = [pytest.mark.sweep_input, pytest.mark.rules(10)]

ONCE = (
    "the intervals (or events) may be any iterable, read once, in any order: validate and "
    "use each as it is read, or copy the input into a list first."
)
SPANS = [Span(2, "c", 7, 9), Span(0, "a", 0, 5), Span(1, "b", 3, 8)]
QUESTIONS: dict[str, tuple[dict[str, Any], Any]] = {
    "idle_windows": ({"horizon": (0, 12)}, ((9, 12),)),
    "underused_windows": ({"horizon": (0, 12), "below": 2}, ((0, 3), (5, 7), (8, 12))),
    "utilization": (
        {"gpus": 3, "horizon": (0, 12), "bucket": 6},
        (Fraction(4, 9), Fraction(2, 9)),
    ),
    "overlapping_jobs": ({}, (("a", "b"), ("b", "c"))),
    "peak_concurrency": ({"horizon": (0, 12)}, (2, (3, 5))),
}


@pytest.mark.parametrize("name", QUESTIONS)
def test_a_one_shot_iterator_is_read_once(sweep: Sweep, name: str) -> None:
    kwargs, want = QUESTIONS[name]
    sweep.check(name, SPANS, want, rule=ONCE, form="iterator", **kwargs)


def test_a_one_shot_iterator_of_events_is_read_once(sweep: Sweep) -> None:
    events = [Ev(7, 0, "a", "stop"), Ev(2, 1, "b", "start"), Ev(3, 0, "a", "start")]
    sweep.pairs(events, [Span(0, "a", 3, 7), Span(1, "b", 2, UNTIL)], rule=ONCE, form="iterator")


@pytest.mark.parametrize("name", QUESTIONS)
def test_a_log_in_reverse_gives_the_same_answer(sweep: Sweep, name: str) -> None:
    kwargs, want = QUESTIONS[name]
    sweep.check(name, SPANS[::-1], want, rule=ONCE, **kwargs)


@given(logs, horizons, st.permutations(range(10)))
def test_the_order_of_the_log_changes_nothing(
    sweep: Sweep, spans: list[Span], horizon: tuple[int, int], order: list[int]
) -> None:
    shuffled = [spans[i] for i in order if i < len(spans)]
    for name in ("idle_windows", "overlapping_jobs", "peak_concurrency"):
        kwargs: dict[str, Any] = {} if name == "overlapping_jobs" else {"horizon": horizon}
        sweep.holds(
            [query(name, spans, **kwargs), query(name, shuffled, **kwargs)],
            lambda original, reordered: original == reordered,
            claim=f"reordering the log changed the answer of {name}",
            rule=ONCE,
        )


@given(logs, horizons)
def test_an_iterator_of_any_log_gives_the_lists_answer(
    sweep: Sweep, spans: list[Span], horizon: tuple[int, int]
) -> None:
    sweep.check("idle_windows", spans, rule=ONCE, form="iterator", horizon=horizon)
    sweep.check("overlapping_jobs", spans, rule=ONCE, form="iterator")
