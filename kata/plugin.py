"""The kata's harness, a pytest plugin: which implementation is tested, the rubric, the scorecard.

    python -m pytest                                   # the reference, every exercise
    python -m pytest --impl my_detector.py --rubric    # a candidate's module, scored

In kata mode (``--impl``) only the exercises the module attempts are
collected, hypothesis is deterministic (derandomized, no example database
shared between implementations), and a failed check names the gallery's
known mistakes that give the same answer.  Every test carries one rubric
marker (`kata.exercises`) or ``reference`` (tests of this project's
own tools, run only against the reference).
"""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from hypothesis import Phase, is_hypothesis_test, settings
from hypothesis.internal.conjecture import engine as conjecture_engine

from kata.checks import KataFailure
from kata.evidence import LEDGER, Check, Naming
from kata.exercises import EXERCISES, POINTS, REFERENCE_ONLY, ROOT
from kata.impl import (
    ENVIRONMENT_VARIABLE,
    REFERENCE,
    Implementation,
    Kata,
    LoadError,
    NotImplementedYet,
    here,
    import_source,
    modules_of,
)
from kata.outcomes import Outcome, TooSlow, Unanswered
from kata.plan import plan
from kata.process.judge import Judge, Limits
from kata.scorecard import (
    FAILURE_PROPERTY,
    MISTAKES_PROPERTY,
    SYMPTOM_PROPERTY,
    Scorecard,
    render_unloaded,
)

# Hypothesis profiles.  None reports several bugs at once: one failure per test,
# the one a check explains.  The reference's edit-test loop is randomized (new
# examples find new bugs); CI (hypothesis loads `ci` when CI is set) and kata
# mode are derandomized, so a verdict never depends on a seed.
settings.register_profile("default", max_examples=60, deadline=None, report_multiple_bugs=False)
settings.register_profile(
    "ci", settings.get_profile("ci"), max_examples=100, report_multiple_bugs=False
)
# No explain phase: it annotates a falsifying example with the parts that do not matter,
# and took seconds of a wrong answer's verdict (8 s of 11 on one boundary mistake) for a
# comment the failure message does not need; the verdict and the example are the same.
KATA_PHASES = [Phase.explicit, Phase.reuse, Phase.generate, Phase.target, Phase.shrink]
settings.register_profile(
    "kata",
    derandomize=True,
    database=None,
    deadline=None,
    report_multiple_bugs=False,
    max_examples=100,
    phases=KATA_PHASES,
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
JUDGE = pytest.StashKey[Judge]()
OUTPUT_SECTION = "what your module printed during this test"


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
    group.addoption(
        "--rubric-page",
        metavar="PATH",
        help="write the scorecard as a page to keep: HTML, or Markdown if PATH ends in .md",
    )
    group.addoption(
        "--trusted",
        action="store_true",
        help="the module is this project's own (its gallery): asked in this process, not "
        "judged in one of its own; never for a candidate's code",
    )
    group.addoption(
        "--steps",
        action="store_true",
        help="run the tests a step at a time (kata/steps/), stopping after the first step "
        "that fails: its failures are the only ones shown",
    )
    group.addoption(
        "--hint",
        action="append",
        default=[],
        metavar="EXERCISE/STEP=RUNG",
        help="a hint taken (the highest rung, 1-3), for the scorecard: detector/compare=2",
    )
    group.addoption(
        "--time-limit",
        type=float,
        default=Limits.per_call,
        metavar="SECONDS",
        help=f"seconds your module may take to answer one call (default {Limits.per_call:g}); "
        "a test gets 3 times as long, the run 30 times",
    )


def pytest_configure(config: pytest.Config) -> None:
    for name, (exercise, point) in POINTS.items():
        config.addinivalue_line("markers", f"{name}: rubric point ({exercise.name}): {point.title}")
    config.addinivalue_line(
        "markers", f"{REFERENCE_ONLY}: tests this project's own tools, not a kata contract"
    )
    config.addinivalue_line(
        "markers", "rules(*numbers): the contract's numbered rules this test checks"
    )
    config.addinivalue_line(
        "markers",
        "alone(why): an example test no known mistake fails, and why it stands anyway",
    )
    if config.option.help:
        return
    json_path = config.getoption("--rubric-json")
    page_path = config.getoption("--rubric-page")
    _check_card_path(json_path)
    _check_card_path(page_path, "--rubric-page")
    seconds = config.getoption("--time-limit")
    if not seconds > 0:
        raise pytest.UsageError(f"kata: --time-limit {seconds:g}: it must be more than 0 seconds")
    source = config.getoption("--impl")
    trusted = bool(source) and config.getoption("--trusted")
    judge = None if trusted else Judge(source or REFERENCE, Limits(per_call=seconds))
    if judge is not None:
        config.stash[JUDGE] = judge
    try:
        if judge is None:
            kata = config.stash[KATA] = _trusted(source, seconds)
        else:
            kata = config.stash[KATA] = _load(judge, source)
    except LoadError as error:
        if judge is not None:
            judge.close()
        card = render_unloaded(source or REFERENCE, str(error), json_path, page_path)
        if config.getoption("--rubric"):
            sys.stderr.write("\n".join(card) + "\n")
        raise pytest.UsageError(f"kata: {error}") from None
    config.stash[SCORES] = Scorecard(
        kata,
        print_card=config.getoption("--rubric"),
        json_path=json_path,
        judge=judge,
        hints=_hints(config.getoption("--hint")),
        stepwise=config.getoption("--steps"),
        page_path=page_path,
    )
    config.pluginmanager.register(config.stash[SCORES], "kata-scorecard")


def _hints(taken: list[str]) -> dict[str, dict[str, int]]:
    """--hint detector/compare=2 ...: exercise -> step -> the highest rung taken."""
    hints: dict[str, dict[str, int]] = {}
    for text in taken:
        where, _, rung = text.partition("=")
        exercise, _, step = where.partition("/")
        if exercise not in EXERCISES or not step or rung not in ("1", "2", "3"):
            raise pytest.UsageError(
                f"kata: --hint {text}: expected EXERCISE/STEP=RUNG, a rung 1-3 (detector/compare=2)"
            )
        try:
            plan(exercise).named(step)
        except KeyError as error:
            raise pytest.UsageError(f"kata: --hint {text}: {error.args[0]}") from None
        steps = hints.setdefault(exercise, {})
        steps[step] = max(steps.get(step, 0), int(rung))
    return hints


def _check_card_path(json_path: str | None, option: str = "--rubric-json") -> None:
    """A scorecard that could not be written fails now, not after the whole run."""
    if not json_path:
        return
    path = Path(json_path)
    if path.is_dir():
        raise pytest.UsageError(f"kata: {option} {json_path}: that is a folder, not a file")
    if not path.resolve().parent.is_dir():
        raise pytest.UsageError(
            f"kata: {option} {json_path}: the folder {path.parent} does not exist"
        )
    if not os.access(path.resolve().parent, os.W_OK):
        raise pytest.UsageError(
            f"kata: {option} {json_path}: the folder {path.parent} is not writable"
        )


def _trusted(source: str, seconds: float) -> Kata:
    """The project's own module, imported and asked here: a gallery run spends no time
    starting and feeding a judged process, which only a stranger's code needs."""
    modules = modules_of(source, import_source(source))
    attempted = {name: here(module, seconds=seconds) for name, module in modules.items()}
    if not attempted:
        raise LoadError(f"{source} provides none of the names the kata tests")
    missing = tuple(e for name, e in EXERCISES.items() if name not in attempted)
    return Kata(source, attempted, missing, kata_mode=True)


def _load(judge: Judge, source: str | None) -> Kata:
    """The module imported by the judged process, and what it attempts."""
    loaded = judge.load()
    attempted = {
        name: Implementation(EXERCISES[name], source or REFERENCE, names, loaded.file, judge)
        for name, names in loaded.provided.items()
    }
    if source in (None, "", REFERENCE):
        return Kata(REFERENCE, attempted, (), kata_mode=source == REFERENCE)
    if not attempted:
        names = ", ".join(n for exercise in EXERCISES.values() for n in exercise.names)
        raise LoadError(f"{source} provides none of the names the kata tests: {names}")
    missing = tuple(e for name, e in EXERCISES.items() if name not in attempted)
    return Kata(source, attempted, missing, kata_mode=True)


# In kata mode a falsifying example is shrunk at most this many times (hypothesis's own
# limit is 500, a constant it lets users monkeypatch): a count, so the example a candidate
# reads is the same on any machine.  Shrinking a session of many steps made thousands of
# calls of the module in its own process: a wrong quota answer's scorecard took 31 s of
# CPU at 500, 10 s at 50 and 5 s at 25, as long as a right answer's, with the same name.
KATA_MAX_SHRINKS = 25


def pytest_sessionstart(session: pytest.Session) -> None:
    """In kata mode, hypothesis is deterministic whatever profile was asked for."""
    if not session.config.stash[KATA].kata_mode:
        return
    conjecture_engine.MAX_SHRINKS = KATA_MAX_SHRINKS
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
                f"kata/exercises.py or {REFERENCE_ONLY}"
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
        scores.note_kind(item)
        kept.append(item)
    if dropped:
        config.hook.pytest_deselected(items=dropped)
        items[:] = kept
    if config.getoption("--steps"):
        _in_steps(config, items)


STEPS = pytest.StashKey[dict[str, tuple[str, int]]]()  # nodeid -> (exercise, step number)


def _in_steps(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Items in the order of their exercise's steps (stable within a step)."""
    steps = config.stash[STEPS] = {}
    order = {name: index for index, name in enumerate(EXERCISES)}
    for item in items:
        point = rubric_point(item)
        if point in POINTS:
            exercise = POINTS[point][0].name
            steps[item.nodeid] = (exercise, plan(exercise).step_of(point).number)
    items.sort(key=lambda item: (order[steps[item.nodeid][0]], steps[item.nodeid][1]))


@pytest.hookimpl(wrapper=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem: pytest.Item | None) -> Any:
    """In steps, the run stops after the last test of a step that failed."""
    result = yield
    steps = item.config.stash.get(STEPS, None)
    if steps is None:
        return result
    step = steps[item.nodeid]
    if nextitem is not None and steps.get(nextitem.nodeid) == step:
        return result
    scores, (exercise, number) = item.config.stash[SCORES], step
    found = plan(exercise)
    result_, _ = scores.step_result(found, found.steps[number - 1])
    if result_ != "passed":
        name = found.steps[number - 1].name
        why = {
            "failed": "fails: fix it first",
            "partial": "is not finished: write the rest of it first",
        }.get(result_, "is not written yet")
        item.session.shouldstop = scores.stopped_at_step = (
            f"step {number} of {exercise} ({name}) {why}"
        )
    return result


def pytest_runtest_setup(item: pytest.Item) -> None:
    """Each test's time budget, output and evidence are its own."""
    example = not is_hypothesis_test(getattr(item, "obj", None))
    LEDGER.begin(item.nodeid, rubric_point(item) or "", example=example)
    if JUDGE in item.config.stash:
        item.config.stash[JUDGE].begin(item.nodeid)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item: pytest.Item) -> Any:
    """Turn the harness's signals into the message a candidate reads."""
    try:
        return (yield)
    except Unanswered as lost:
        raise pytest.fail.Exception(explain_unanswered(item, lost), pytrace=False) from None
    except NotImplementedYet as error:
        unwritten = _unwritten(item, error.name)
        if unwritten:
            raise pytest.skip.Exception(unwritten) from None
        what = f"{error.name} raised NotImplementedError on this call, though it answers others"
        item.user_properties.append((SYMPTOM_PROPERTY, what))
        item.user_properties.append((FAILURE_PROPERTY, what))
        raise pytest.fail.Exception(what, pytrace=False) from None
    except KataFailure as failure:
        raise pytest.fail.Exception(explain(item, failure), pytrace=False) from None


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Any:
    """A failed test shows what the module printed during it (kept in bounded memory)."""
    report = yield
    failure = item.config.stash.get(FAILURES, {}).get(item.nodeid)
    if failure is not None and report.failed and report.when == "call":
        failure.report = report
    if report.failed and report.when == "call":
        judge = item.config.stash.get(JUDGE, None)
        printed = judge.output_of_test() if judge is not None else ""
        if printed:
            report.sections.append((OUTPUT_SECTION, printed))
    return report


@pytest.hookimpl(trylast=True)
def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    """A run in which any point failed, or that is void, never exits 0."""
    judge = session.config.stash.get(JUDGE, None)
    if judge is None and not session.config.getoption("--trusted"):
        return
    _name_again(session)
    _written_after_all(session)
    if judge is not None:
        judge.finish()
    scores = session.config.stash[SCORES]
    failed = scores.any_failed() or bool(judge and judge.void)
    if exitstatus == pytest.ExitCode.OK and failed:
        session.exitstatus = pytest.ExitCode.TESTS_FAILED
    elif scores.stopped_at_step and not scores.interrupted:  # stopped by the steps, not Ctrl-C
        failing = pytest.ExitCode.TESTS_FAILED
        session.exitstatus = failing if failed else pytest.ExitCode.OK


def pytest_unconfigure(config: pytest.Config) -> None:
    if JUDGE in config.stash:
        config.stash[JUDGE].close()


@dataclass
class Failure:
    """A failed test's evidence and message, named again at the end of the run."""

    check: Check
    text: str  # the failure itself, before any mistake is named
    symptom: str  # what differs, if the check could say
    naming: Naming
    report: pytest.TestReport | None = None


FAILURES = pytest.StashKey[dict[str, Failure]]()


def explain(item: pytest.Item, failure: KataFailure) -> str:
    """The failure's text, with the known mistakes that behave as the candidate's module does."""
    check = LEDGER.failed(
        failure.impl.exercise.name, failure.questions, failure.outcomes, failure.judge
    )
    return _named(item, Failure(check, failure.text, failure.symptom, LEDGER.name(check)))


def explain_unanswered(item: pytest.Item, lost: Unanswered) -> str:
    """No answer came; a known mistake that hangs on the same call is named."""
    if lost.kind != "time limit":
        detail = lost.text.removeprefix(str(lost.question)).strip().splitlines()[0]
        item.user_properties.append((SYMPTOM_PROPERTY, detail))
        item.user_properties.append((FAILURE_PROPERTY, lost.text))
        return lost.text
    check = LEDGER.failed(lost.exercise, [lost.question], [TooSlow(0)], _answers)
    return _named(item, Failure(check, lost.text, "", LEDGER.name(check)))


UNWRITTEN = pytest.StashKey[dict[str, tuple[str, str]]]()  # nodeid -> (exercise, function)


def _unwritten(item: pytest.Item, function: str) -> str:
    """Why the test is not attempted, if `function` has answered no call yet; else "".

    Noted, so that a function written after all (it answers a later test's calls)
    turns this test into a failure at the end of the run."""
    point = rubric_point(item)
    if point is None or point not in POINTS:
        return ""
    exercise = POINTS[point][0].name
    kata = item.config.stash[KATA]
    if exercise not in kata.attempted or kata.attempted[exercise].written(function):
        return ""
    item.config.stash.setdefault(UNWRITTEN, {})[item.nodeid] = (exercise, function)
    return f"not attempted: {function} is not written yet (it raises NotImplementedError)"


def _answers(outcomes: Sequence[Outcome]) -> bool:
    return not isinstance(outcomes[0], TooSlow)


def _named(item: pytest.Item, failure: Failure) -> str:
    item.config.stash.setdefault(FAILURES, {})[item.nodeid] = failure
    text, mistakes, symptom = _account(failure)
    item.user_properties.append((FAILURE_PROPERTY, failure.text))
    item.user_properties.append((MISTAKES_PROPERTY, mistakes))
    if symptom:
        item.user_properties.append((SYMPTOM_PROPERTY, symptom))
    return text


def _account(failure: Failure) -> tuple[str, list[str], str]:
    """The message, the mistakes named and the scorecard's symptom line, from the naming."""
    named = failure.naming.named
    lines = [failure.text]
    if named:
        first, *others = named
        if first.id in failure.naming.in_part:
            lines.append(
                f"  This is mistake {first.id}, here (elsewhere your code gets it right): "
                f"{first.title}{' ' + first.explanation if first.explanation else ''}"
            )
        else:
            lines.append(f"  This is mistake {first.describe()}")
        lines += [f"  Or mistake {m.id}, which answers alike here: {m.title}" for m in others]
        return "\n".join(lines), [m.id for m in named], ""
    if failure.symptom:
        lines.append(f"  No known mistake answers alike. What differs: {failure.symptom}")
        symptom = f"no known mistake answers alike; what differs: {failure.symptom}"
    else:
        lines.append("  No known mistake answers alike: compare the answer expected with yours.")
        symptom = (
            "no known mistake answers alike; the test's message shows the call, the answer "
            "expected and yours, and the rule"
        )
    return "\n".join(lines), [], symptom


def _name_again(session: pytest.Session) -> None:
    """Every failure named again with the whole run's evidence; messages and card follow."""
    scores = session.config.stash[SCORES]
    LEDGER.forget_namings()
    for nodeid, failure in session.config.stash.get(FAILURES, {}).items():
        naming = LEDGER.name(failure.check)
        if naming == failure.naming:
            continue
        failure.naming = naming
        text, mistakes, symptom = _account(failure)
        scores.renamed(nodeid, mistakes, symptom)
        if failure.report is not None:
            failure.report.longrepr = text


def _written_after_all(session: pytest.Session) -> None:
    """A test skipped because a function was unwritten, which later answered calls: the
    function is written, and raised NotImplementedError on that test's call: failed."""
    kata = session.config.stash[KATA]
    for nodeid, (exercise, function) in session.config.stash.get(UNWRITTEN, {}).items():
        if kata.attempted[exercise].written(function):
            session.config.stash[SCORES].failed_after_all(
                nodeid,
                f"{function} raised NotImplementedError on this test's call, though it "
                "answers others",
            )


def rubric_point(item: pytest.Item) -> str | None:
    """The one rubric marker an item carries (or `reference`), None if it has none."""
    names = {m.name for m in item.iter_markers() if m.name in POINTS or m.name == REFERENCE_ONLY}
    if len(names) > 1:
        raise pytest.UsageError(f"{item.nodeid} has several rubric markers: {sorted(names)}")
    return names.pop() if names else None
