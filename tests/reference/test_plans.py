"""The plans (kata/steps/*.toml): declared once, whole, and copied nowhere by hand."""

from __future__ import annotations

import dataclasses
import re

import pytest

from kata.card import anchor, card
from kata.exercises import EXERCISES
from kata.plan import GRADE_LINE, Plan, PlanError, Rung, _check, plan
from tools.rubric_steps import CONTENTS, RUBRIC, headings, written

# A card is read in the ten minutes before a session: a page, not a chapter.
CARD_LINES = 60

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


def test_a_step_that_does_not_say_what_adequate_sounds_like_is_refused() -> None:
    found = plan("detector")
    strong, _, weak = found.steps[0].grades
    for grades in [(strong, "", weak), (strong, "x" * (GRADE_LINE + 1), weak)]:
        broken = dataclasses.replace(found.steps[0], grades=grades)
        with pytest.raises(PlanError, match="adequate"):
            _check(dataclasses.replace(found, steps=(broken, *found.steps[1:])), "detector.toml")


@pytest.mark.parametrize(
    ("rung", "message"),
    [
        (Rung(7, ("sweep", "peak")), r"7 minutes, but its steps \(sweep, peak\) take 12"),
        (Rung(12, ("peak", "sweep")), "in the plan's order"),
        (Rung(8, ("sweeping",)), "unknown steps"),
    ],
)
def test_a_rung_asks_only_for_steps_its_minutes_hold(rung: Rung, message: str) -> None:
    """A follow-up rung of 7 minutes cannot ask for steps that take 12: it names fewer."""
    found = plan("sweep")
    with pytest.raises(PlanError, match=message):
        _check(dataclasses.replace(found, rung=rung), "sweep.toml")


@pytest.mark.parametrize("exercise", EXERCISES)
def test_each_card_sits_first_in_its_section_and_fits_a_page(exercise: str) -> None:
    """RUBRIC.md's card is the plan's (written by tools/rubric_steps.py), under a heading."""
    text = RUBRIC.read_text()
    shown = card(plan(exercise))
    block = f"<!-- card: {exercise} -->\n{shown}\n<!-- /card -->"
    assert block in text, f"{exercise}'s card differs: python tools/rubric_steps.py --write"
    before = text[: text.index(block)].rstrip("\n").splitlines()[-1]
    assert before.startswith("## "), f"{exercise}'s card opens its section, under its heading"
    lines = len(shown.splitlines())
    assert lines <= CARD_LINES, f"{exercise}'s card has {lines} lines; a page holds {CARD_LINES}"


@pytest.mark.parametrize("exercise", EXERCISES)
def test_a_card_holds_what_a_session_needs(exercise: str) -> None:
    found = plan(exercise)
    shown = card(found)
    assert found.question in shown
    assert all(question in shown for question in found.clarifying)
    for step in found.steps:
        begins = found.begins(step)
        assert f"{begins}-{begins + step.minutes} min, step {step.number}: {step.title}" in shown
        assert all(grade in shown for grade in step.grades)
        assert all(" ".join(hint.split()) in shown for hint in step.hints)
    assert "caps the step's points, 1 (a question) at strong" in shown
    assert "`python -m kata check FILE --all`" in shown
    assert "`python -m pytest --impl FILE --rubric`" in shown


def test_the_contents_list_every_section_in_order_with_its_card() -> None:
    """A contents entry for each `## ` heading, in order, linking the card the section holds."""
    text = RUBRIC.read_text()
    found = CONTENTS.search(text)
    assert found, "RUBRIC.md has no contents: <!-- contents --> <!-- /contents -->"
    entries = re.findall(r"^- \[(.+?)\]\(#([\w-]+)\)(.*)$", found.group(0), re.M)
    titles = re.findall(r"^## (.+)$", text, re.M)
    assert [title for title, _, _ in entries] == titles, (
        "the contents differ from the headings: python tools/rubric_steps.py --write"
    )
    sections = headings(text)
    assert [link for _, link, _ in entries] == [link for _, link, _ in sections]
    assert "#scoring-a-candidates-code" in found.group(0), "links are GitHub's anchors"
    cards = {exercise for *_, exercise in sections if exercise}
    assert cards == set(EXERCISES), "every exercise's card is in a section of its own"
    for (_, _, rest), (*_, exercise) in zip(entries, sections, strict=True):
        assert (f"(#{anchor(exercise)})" in rest) == bool(exercise)
        if exercise:
            assert f"\n### Interview card: {exercise}\n" in text, "a card's link lands on it"
