"""The kata's harness, a pytest plugin: which implementation is tested, the rubric, the scorecard.

    python -m pytest                                   # the reference, every exercise
    python -m pytest --impl my_detector.py --rubric    # a candidate's module, scored

In kata mode (``--impl``) only the exercises the module attempts are
collected, hypothesis is deterministic (derandomized, no example database
shared between implementations), and a failed check names the gallery's
known mistakes that give the same answer.  Every test carries one rubric
marker (`tests.support.exercises`) or ``reference`` (tests of this project's
own tools, run only against the reference).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest
from hypothesis import Phase, settings

from tests.support import catalogue
from tests.support.checks import KataFailure
from tests.support.exercises import EXERCISES, POINTS, REFERENCE_ONLY, ROOT
from tests.support.impl import (
    ENVIRONMENT_VARIABLE,
    Implementation,
    Kata,
    LoadError,
    NotImplementedYet,
    load,
)
from tests.support.scorecard import MISTAKES_PROPERTY, SYMPTOM_PROPERTY, Scorecard

# Hypothesis profiles.  None reports several bugs at once: one failure per test,
# the one a check explains.  The reference's edit-test loop is randomized (new
# examples find new bugs); CI (hypothesis loads `ci` when CI is set) and kata
# mode are derandomized, so a verdict never depends on a seed.
settings.register_profile("default", max_examples=60, deadline=None, report_multiple_bugs=False)
settings.register_profile(
    "ci", settings.get_profile("ci"), max_examples=100, report_multiple_bugs=False
)
settings.register_profile(
    "kata",
    derandomize=True,
    database=None,
    deadline=None,
    report_multiple_bugs=False,
    max_examples=100,
)
# The gallery's runs read verdicts only: fewer examples, no shrinking.
settings.register_profile(
    "gallery",
    settings.get_profile("kata"),
    max_examples=40,
    phases=[Phase.explicit, Phase.reuse, Phase.generate],
)
# Example tests alone (property tests run no generated example): a wrong answer's
# verdict must already be decided here, so no seed can change it.
settings.register_profile("examples", settings.get_profile("kata"), phases=[Phase.explicit])

KATA = pytest.StashKey[Kata]()
SCORES = pytest.StashKey[Scorecard]()


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("kata", "heartbeat kata")
    group.addoption(
        "--impl",
        default=os.environ.get(ENVIRONMENT_VARIABLE),
        help=f"the implementation to test: a .py file or a dotted module "
        f"(default: ${ENVIRONMENT_VARIABLE}, else the reference)",
    )
    group.addoption("--rubric", action="store_true", help="end with a scorecard by rubric point")
    group.addoption("--rubric-json", metavar="PATH", help="write the scorecard as JSON to PATH")


def pytest_configure(config: pytest.Config) -> None:
    for name, (exercise, point) in POINTS.items():
        config.addinivalue_line("markers", f"{name}: rubric point ({exercise.name}): {point.title}")
    config.addinivalue_line(
        "markers", f"{REFERENCE_ONLY}: tests this project's own tools, not a kata contract"
    )
    json_path = config.getoption("--rubric-json")
    if json_path and not Path(json_path).resolve().parent.is_dir():
        raise pytest.UsageError(
            f"kata: --rubric-json {json_path}: the folder {Path(json_path).parent} does not exist"
        )
    try:
        kata = config.stash[KATA] = load(config.getoption("--impl"))
    except LoadError as error:
        raise pytest.UsageError(f"kata: {error}") from None
    config.stash[SCORES] = Scorecard(
        kata,
        print_card=config.getoption("--rubric"),
        json_path=json_path,
    )
    config.pluginmanager.register(config.stash[SCORES], "kata-scorecard")


def pytest_sessionstart(session: pytest.Session) -> None:
    """In kata mode, hypothesis is deterministic whatever profile was asked for."""
    if not session.config.stash[KATA].kata_mode:
        return
    current = settings.default
    if current is None or not current.derandomize or current.database is not None:
        settings.load_profile("kata")


def pytest_ignore_collect(collection_path: Path, config: pytest.Config) -> bool | None:
    """In kata mode, collect only the tests of the exercises the module attempts."""
    kata = config.stash[KATA]
    if not kata.kata_mode:
        return None
    path = collection_path.resolve()
    for name in kata.attempted:
        tests = EXERCISES[name].tests
        if path == tests or tests in path.parents or path in tests.parents:
            return None
    return True  # another exercise's tests, the reference's own, or its doctests


def implementation(config: pytest.Config, exercise: str) -> Implementation:
    """The implementation of `exercise` under test (each exercise's conftest makes it a fixture)."""
    return config.stash[KATA].attempted[exercise]


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    scores, kata_mode = config.stash[SCORES], config.stash[KATA].kata_mode
    kept, dropped = [], []
    for item in items:
        point = rubric_point(item)
        if point is None and not isinstance(item, pytest.Function):
            point = REFERENCE_ONLY  # doctests: the write-up and the reference's docstrings
        if point is None:
            raise pytest.UsageError(
                f"{item.nodeid} has no rubric marker: mark it with a point of "
                f"tests/support/exercises.py or {REFERENCE_ONLY}"
            )
        if point == REFERENCE_ONLY and kata_mode:
            dropped.append(item)  # a path given explicitly (WRITEUP.md), collected anyway
            continue
        if point != REFERENCE_ONLY:
            exercise = POINTS[point][0]
            path = Path(str(item.path)).resolve()
            if exercise.tests not in path.parents:
                raise pytest.UsageError(
                    f"{item.nodeid} is marked {point}, a point of {exercise.name}, but is not "
                    f"under {exercise.tests.relative_to(ROOT)}"
                )
        scores.points[item.nodeid] = point
        kept.append(item)
    if dropped:
        config.hook.pytest_deselected(items=dropped)
        items[:] = kept


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item: pytest.Item) -> Any:
    """Turn the harness's signals into the message a candidate reads."""
    try:
        return (yield)
    except NotImplementedYet as error:
        what = str(error) or "a function this test calls"
        item.user_properties.append((SYMPTOM_PROPERTY, f"not implemented yet: {what}"))
        raise pytest.fail.Exception(f"not implemented yet: {what}", pytrace=False) from None
    except KataFailure as failure:
        raise pytest.fail.Exception(explain(item, failure), pytrace=False) from None


def explain(item: pytest.Item, failure: KataFailure) -> str:
    """The failure's text, with the known mistakes that answer as the candidate did."""
    found = catalogue.matching(failure.impl.exercise.name, failure.questions, failure.outcomes)
    item.user_properties.append((MISTAKES_PROPERTY, [m.id for m in found]))
    if found:
        first, *others = found
        lines = [f"  Mistake {first.describe()}"]
        lines += [f"  The same answer comes from mistake {m.id}: {m.title}" for m in others]
        return failure.text + "\n" + "\n".join(lines)
    symptom = failure.symptom or "compare the answer with the rule above."
    item.user_properties.append((SYMPTOM_PROPERTY, symptom))
    return f"{failure.text}\n  No known mistake gives this answer. What differs: {symptom}"


def rubric_point(item: pytest.Item) -> str | None:
    """The one rubric marker an item carries (or `reference`), None if it has none."""
    names = {m.name for m in item.iter_markers() if m.name in POINTS or m.name == REFERENCE_ONLY}
    if len(names) > 1:
        raise pytest.UsageError(f"{item.nodeid} has several rubric markers: {sorted(names)}")
    return names.pop() if names else None
