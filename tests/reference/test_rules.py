"""Every numbered rule of every contract is held by an example test that names it.

A contract's rules are the README's numbered items with a bold title
(``7. **Safe to repeat** ...``); a test names the rules it checks with
``@pytest.mark.rules(7)`` (or in its module's ``pytestmark``).  An *example*
test is one that generates nothing (no ``@given``, no state machine): its
verdict cannot depend on a seed, so every rule must have one.
"""

from __future__ import annotations

import importlib
import inspect
from collections.abc import Iterator
from typing import Any

import pytest

from kata.exercises import EXERCISES, Exercise

pytestmark = pytest.mark.reference


def marked_rules(marks: Any) -> set[int]:
    marks = marks if isinstance(marks, list) else [marks]
    return {int(n) for mark in marks if mark.name == "rules" for n in mark.args}


def declared_tests(exercise: Exercise) -> Iterator[tuple[str, set[int], bool]]:
    """Each test of the exercise: its name, the rules it names, whether it is an example test."""
    for path in sorted(exercise.tests.glob("test_*.py")):
        module = importlib.import_module(f"tests.{exercise.name}.{path.stem}")
        on_module = marked_rules(getattr(module, "pytestmark", []))
        for name, function in vars(module).items():
            if not (name.startswith("test_") and inspect.isfunction(function)):
                continue
            rules = on_module | marked_rules(getattr(function, "pytestmark", []))
            generated = getattr(function, "is_hypothesis_test", False) or (
                "run_state_machine_as_test" in inspect.getsource(function)
            )
            yield f"{path.name}::{name}", rules, not generated


@pytest.mark.parametrize("exercise", EXERCISES.values(), ids=lambda e: e.name)
def test_the_rules_are_numbered_from_one(exercise: Exercise) -> None:
    numbers = list(exercise.rules())
    assert numbers, f"{exercise.contract} numbers no rule (1. **Title.** ...)"
    assert numbers == list(range(1, len(numbers) + 1)), numbers


@pytest.mark.parametrize("exercise", EXERCISES.values(), ids=lambda e: e.name)
def test_every_test_names_rules_of_its_contract(exercise: Exercise) -> None:
    rules = exercise.rules()
    unnamed = [test for test, named, _ in declared_tests(exercise) if not named]
    assert not unnamed, f"tests naming no rule of {exercise.contract}: {unnamed}"
    unknown = {test: sorted(named - set(rules)) for test, named, _ in declared_tests(exercise)}
    assert not {t: n for t, n in unknown.items() if n}, f"rules {exercise.contract} lacks"


@pytest.mark.parametrize("exercise", EXERCISES.values(), ids=lambda e: e.name)
def test_every_rule_has_an_example_test(exercise: Exercise) -> None:
    held = {n for _, named, example in declared_tests(exercise) if example for n in named}
    missing = {n: title for n, title in exercise.rules().items() if n not in held}
    assert not missing, f"rules of {exercise.contract} without an example test: {missing}"
