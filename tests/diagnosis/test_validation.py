"""Bad input raises ValueError in every function of the exercise."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

from kata.checks import expect, expect_value_error
from kata.impl import Implementation
from tests.support.detecting import Row
from tests.support.diagnosing import (
    Beat,
    Case,
    Report,
    Trace,
    clock_reads_question,
    diagnose_question,
    guard_question,
    phi_clock_back,
    phi_construction,
)

pytestmark = pytest.mark.diagnosis_validation


@pytest.mark.rules(6)
@pytest.mark.parametrize(
    ("case", "problem"),
    [
        (Case((), world_size=-1, start=0, now=10, timeout=5, stall_timeout=5), "a negative world"),
        (
            Case((), world_size=2, start=0, now=10, timeout=-1, stall_timeout=5),
            "a negative timeout",
        ),
        (
            Case((), world_size=2, start=0, now=10, timeout=5, stall_timeout=-1),
            "a negative stall_timeout",
        ),
        (Case((), world_size=2, start=20, now=10, timeout=5, stall_timeout=5), "now before start"),
        (Case((Beat(2, 0, 5, 1),), 2, 0, 10, 5, 5), "a rank outside the world"),
        (Case((Beat(0, 0, 5, -1),), 2, 0, 10, 5, 5), "negative progress"),
    ],
    ids=["world", "timeout", "stall", "window", "rank", "progress"],
)
def test_diagnose_refuses_impossible_input(impl: Implementation, case: Case, problem: str) -> None:
    expect_value_error(impl, diagnose_question(case), problem)


@pytest.mark.rules(10)
@pytest.mark.parametrize(
    ("report", "problem"),
    [
        (Report((Row(0, 5, 5),), 2, 0, 10, Fraction(0)), "a fraction of 0"),
        (Report((Row(0, 5, 5),), 2, 0, 10, Fraction(3, 2)), "a fraction above 1"),
        (Report((Row(0, 5, 5),), 2, 0, 10, Fraction(-1, 2)), "a negative fraction"),
        (Report((Row(-1, 5, 5),), 2, 0, 10, Fraction(1, 2)), "a negative rank"),
        (Report((Row(3, 5, 5),), 2, 0, 10, Fraction(1, 2)), "a rank beyond the world"),
        (Report((Row(0, 5, 5),), 2, 0, -1, Fraction(1, 2)), "a negative window"),
        (Report((Row(2, 5, 5),), 2, 0, 10, Fraction(1, 2)), "a rank outside the world"),
        (Report((Row(1, 5, 5), Row(1, 6, 4)), 2, 0, 10, Fraction(1, 2)), "a rank reported twice"),
    ],
    ids=["zero", "above_one", "negative", "window", "rank", "negative_rank", "beyond", "twice"],
)
def test_the_guard_refuses_impossible_input(
    impl: Implementation, report: Report, problem: str
) -> None:
    expect_value_error(impl, guard_question(report), problem)


@pytest.mark.rules(16)
@pytest.mark.parametrize(
    ("settings", "problem"),
    [
        ({"threshold": 0.0}, "a threshold of 0"),
        ({"max_sample_size": 0}, "an empty window"),
        ({"min_std_deviation": 0}, "no floor on the deviation"),
        ({"min_std_deviation": -5}, "a negative floor on the deviation"),
        ({"acceptable_heartbeat_pause": -1}, "a negative pause"),
        ({"first_heartbeat_estimate": 0}, "a first estimate of 0"),
        ({"first_heartbeat_estimate": -5}, "a negative first estimate"),
    ],
    ids=["threshold", "window", "deviation", "negative_deviation", "pause", "estimate", "negative"],
)
def test_phi_refuses_impossible_settings(
    impl: Implementation, settings: dict[str, Any], problem: str
) -> None:
    expect_value_error(impl, phi_construction(settings), problem)


@pytest.mark.rules(11)
@pytest.mark.parametrize(
    "calls",
    [
        ("heartbeat", "heartbeat", "phi"),
        ("heartbeat", "phi", "heartbeat"),
        ("phi", "is_available", "heartbeat"),
    ],
    ids=["behind a heartbeat", "behind a phi", "behind is_available"],
)
def test_phi_refuses_a_clock_that_goes_back(impl: Implementation, calls: tuple[str, ...]) -> None:
    """Behind the last reading of any call, not only the last heartbeat's."""
    expect_value_error(impl, phi_clock_back(calls), "a clock going back")


@pytest.mark.rules(11)
def test_each_call_reads_the_clock_once(impl: Implementation) -> None:
    """One reading per call, before the first heartbeat too: a call that reads twice judges
    the same heartbeat at two instants."""
    steps = (("phi", 0), ("available", 0), ("beat", 10), ("beat", 1_010), ("phi", 1_500))
    t = Trace((*steps, ("available", 1_600)))
    want = tuple((kind, 1) for kind, _ in t.steps)
    expect(impl, clock_reads_question(t), want, rule="the clock is read once per call.")


@pytest.mark.rules(16)
def test_phi_takes_a_pause_of_zero(impl: Implementation) -> None:
    """No acceptable pause at all is a setting, not an error: only a negative one is."""
    rule = "PhiAccrual refuses a negative acceptable_heartbeat_pause, and only a negative one."
    expect(impl, phi_construction({"acceptable_heartbeat_pause": 0}), "made", rule=rule)
