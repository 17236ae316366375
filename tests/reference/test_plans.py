"""The plans (kata/steps/*.toml): declared once, whole, and copied nowhere by hand."""

from __future__ import annotations

import dataclasses
import re

import pytest

from kata.exercises import EXERCISES
from kata.plan import Plan, PlanError, _check, plan
from tools.rubric_steps import RUBRIC, written

pytestmark = pytest.mark.reference


@pytest.mark.parametrize("exercise", EXERCISES)
def test_every_exercise_has_a_plan_that_holds_its_invariants(exercise: str) -> None:
    """Every point in one step, every rule taught, three hints a step, the minutes adding up."""
    found = plan(exercise)
    assert any(step.writes for step in found.steps), "a kata writes code"
    assert all(step.minutes > 0 for step in found.steps)


@pytest.mark.parametrize("exercise", EXERCISES)
def test_a_step_writes_only_what_the_starter_leaves_to_write(exercise: str) -> None:
    starter = EXERCISES[exercise].starter.read_text()
    for step in plan(exercise).steps:
        for name in step.writes:
            defined = rf"^(def|class) {re.escape(name.split('.')[0])}\b"
            assert re.search(defined, starter, re.M), f"{step.name}: the starter has no {name}"


@pytest.mark.parametrize("exercise", EXERCISES)
def test_each_tested_step_has_tests_of_its_own(exercise: str) -> None:
    """A step is checked by its points' tests: each point must mark some test."""
    sources = "\n".join(p.read_text() for p in EXERCISES[exercise].tests.rglob("test_*.py"))
    for step in plan(exercise).steps:
        if step.interview:
            continue
        for point in step.points:
            assert f"mark.{point}" in sources, f"{exercise} step {step.name}: no test of {point}"


def test_rubric_shows_each_plan_as_the_plan_says() -> None:
    """RUBRIC.md's step tables are written from the plans: python tools/rubric_steps.py --write."""
    text = RUBRIC.read_text()
    for exercise in EXERCISES:
        assert f"<!-- plan: {exercise} -->" in text, f"RUBRIC.md has no table for {exercise}"
    assert written(text) == text, "a step table differs: python tools/rubric_steps.py --write"


def test_a_plan_that_drops_a_point_is_refused_by_name() -> None:
    """The invariants are checked, not assumed: a point left out is named."""
    found = plan("detector")
    first = found.steps[0]
    broken = dataclasses.replace(first, points=first.points[1:])
    with pytest.raises(PlanError, match=first.points[0]):
        _check(Plan(**{**vars(found), "steps": (broken, *found.steps[1:])}), "detector.toml")


def test_a_plan_whose_minutes_do_not_add_up_is_refused() -> None:
    found = plan("detector")
    with pytest.raises(PlanError, match="minutes"):
        _check(dataclasses.replace(found, minutes=found.minutes + 1), "detector.toml")
