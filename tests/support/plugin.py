"""The kata's harness, a pytest plugin: which implementation is tested, the rubric, the scorecard.

    python -m pytest                                   # the reference
    python -m pytest --impl my_detector.py --rubric    # a candidate's module, scored

Every test carries one rubric marker (tests/support/rubric.py) or the
``reference`` marker (tests of this project's own CLI and write-up, which are
not run against a candidate's module).
"""

from __future__ import annotations

import os

import pytest
from hypothesis import Phase, settings

from tests.support.impl import ENVIRONMENT_VARIABLE, Implementation, LoadError, load
from tests.support.rubric import POINTS, REFERENCE_ONLY, TESTED
from tests.support.scorecard import Scorecard

# Hypothesis: a quick default for the edit-test loop; in CI (CI set) hypothesis
# loads its own `ci` profile (derandomized, no deadline), extended here.
settings.register_profile(
    "default", settings.get_profile("default"), max_examples=60, deadline=None
)
settings.register_profile("ci", settings.get_profile("ci"), max_examples=200)
# The gallery runs the whole suite once per answer and reads only verdicts:
# fewer examples, no shrinking, derandomized so the verdicts never vary.
settings.register_profile(
    "gallery",
    settings.get_profile("ci"),
    max_examples=40,
    phases=[Phase.explicit, Phase.reuse, Phase.generate],
)

IMPLEMENTATION = pytest.StashKey[Implementation]()
SCORES = pytest.StashKey[Scorecard]()


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("kata", "heartbeat kata")
    group.addoption(
        "--impl",
        default=os.environ.get(ENVIRONMENT_VARIABLE),
        help=f"the implementation to test: a .py file or a dotted module "
        f"(default: ${ENVIRONMENT_VARIABLE}, else the reference `solution`)",
    )
    group.addoption("--rubric", action="store_true", help="end with a scorecard by rubric point")
    group.addoption("--rubric-json", metavar="PATH", help="write the scorecard as JSON to PATH")


def pytest_configure(config: pytest.Config) -> None:
    for name in TESTED:
        point = POINTS[name]
        config.addinivalue_line(
            "markers", f"{name}: rubric point ({point.exercise}): {point.title}"
        )
    config.addinivalue_line(
        "markers", f"{REFERENCE_ONLY}: tests this project's own tools, not the kata contract"
    )
    try:
        config.stash[IMPLEMENTATION] = load(config.getoption("--impl"))
    except LoadError as error:
        raise pytest.UsageError(f"kata: {error}") from None
    config.stash[SCORES] = Scorecard(
        source=config.stash[IMPLEMENTATION].source,
        print_card=config.getoption("--rubric"),
        json_path=config.getoption("--rubric-json"),
    )
    config.pluginmanager.register(config.stash[SCORES], "kata-scorecard")


@pytest.fixture(scope="session")
def impl(pytestconfig: pytest.Config) -> Implementation:
    """The implementation under test."""
    return pytestconfig.stash[IMPLEMENTATION]


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    implementation = config.stash[IMPLEMENTATION]
    kept, dropped = [], []
    for item in items:
        point = rubric_point(item)
        if point is None and not isinstance(item, pytest.Function):
            point = REFERENCE_ONLY  # doctests: the write-up and the reference's docstrings
        if point is None:
            raise pytest.UsageError(
                f"{item.nodeid} has no rubric marker: mark it with one of "
                f"{', '.join(TESTED)} or {REFERENCE_ONLY}"
            )
        if point == REFERENCE_ONLY and not implementation.is_reference:
            dropped.append(item)
            continue
        config.stash[SCORES].points[item.nodeid] = point
        kept.append(item)
    if dropped:
        config.hook.pytest_deselected(items=dropped)
        items[:] = kept


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item: pytest.Item) -> object:
    """An untouched starter raises NotImplementedError: say so in one line, no traceback."""
    try:
        return (yield)
    except NotImplementedError as error:
        what = str(error) or "a function this test calls"
        message = f"not implemented yet: {what}\n  Likely mistake: not implemented yet ({what})."
        raise pytest.fail.Exception(message, pytrace=False) from None


def rubric_point(item: pytest.Item) -> str | None:
    """The one rubric marker an item carries (or `reference`), None if it has none."""
    names = [m.name for m in item.iter_markers() if m.name in TESTED or m.name == REFERENCE_ONLY]
    if len(set(names)) > 1:
        raise pytest.UsageError(f"{item.nodeid} has several rubric markers: {sorted(set(names))}")
    return names[0] if names else None
