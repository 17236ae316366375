"""The tests, tested: the kata run on every answer in gallery/ and starters/.

Each wrong answer must fail the rubric point it names (its FAILS) by example
tests alone (hypothesis generating nothing), so no seed can change its
verdict, and the first mistake the scorecard names must be its own.  Each
right answer, written unlike the reference, must pass every point it
attempts, property tests included; an untouched starter must fail every
point, saying what is not implemented; the reference must pass them all.
"""

from __future__ import annotations

import json
import re
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from kata.exercises import EXERCISES, POINTS, ROOT
from tests.support.subprocess_kata import run_kata

pytestmark = pytest.mark.reference

WRONG = sorted(ROOT.glob("gallery/*/wrong_*.py"))
RIGHT = sorted(ROOT.glob("gallery/*/right_*.py"))
STARTERS = [exercise.starter for exercise in EXERCISES.values()]
REFERENCE = "reference"
EXHAUSTIVE = {"oracle"}  # the detector's every schedule of three ranks over six ticks
WRONG_TIME_LIMIT = 3  # seconds of CPU time a wrong answer's call may take (default: 10)
Card = dict[str, Any]


def name(path: Path) -> str:
    return str(path.relative_to(ROOT))


def fails(module: Path) -> str:
    """The rubric point a wrong answer declares it fails (its FAILS = "...")."""
    found = re.search(r'^FAILS = "(\w+)"$', module.read_text(), re.MULTILINE)
    assert found, f"{module} declares no FAILS"
    return found.group(1)


def mistake_id(module: Path) -> str:
    return f"{module.parent.name}/{module.stem.removeprefix('wrong_')}"


def scorecard(impl: str, workdir: Path) -> Card:
    """Run the kata on `impl` in a fresh pytest and read its JSON scorecard."""
    out = workdir / (impl.replace("/", "_") + ".json")
    profile = "examples" if "/wrong_" in impl else "gallery"
    selected: list[str] = []
    if "/wrong_" in impl:
        # A mistake is judged on its own point; the tests that time a module run only for
        # the mistakes that fail a costly point (they are most of a wrong answer's run), and
        # the exhaustive oracle's 114,688 calls (3.5 s where it passes) only for its own.
        point = fails(ROOT / impl)
        costly = {p for p, (_, kind) in POINTS.items() if kind.costly} | EXHAUSTIVE
        spared = sorted(costly - {point})
        selected = ["-m", " and ".join(f"not {p}" for p in spared)] if spared else []
        # A mistake that never returns (a loop of 10**18 turns) is stopped at the call's limit
        # as any is; a shorter limit stops it sooner, with the same verdict.
        selected += ["--time-limit", str(WRONG_TIME_LIMIT)]
    # The project's own modules are asked in the test process: no judged process to start.
    trusted = ["--trusted"] if impl != REFERENCE else []
    done = run_kata("--impl", impl, "--rubric-json", str(out), *trusted, *selected, profile=profile)
    assert out.exists(), f"no scorecard for {impl}:\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
    card: Card = json.loads(out.read_text())
    return card


@pytest.fixture(scope="module")
def cards(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Card]:
    """Every scorecard, two runs at a time (one per core)."""
    workdir = tmp_path_factory.mktemp("scorecards")
    impls = [REFERENCE, *map(name, [*WRONG, *RIGHT, *STARTERS])]
    with ThreadPoolExecutor(max_workers=2) as pool:
        return dict(zip(impls, pool.map(lambda impl: scorecard(impl, workdir), impls), strict=True))


def test_the_reference_passes_every_rubric_point(cards: dict[str, Card]) -> None:
    results = {point: score["result"] for point, score in cards[REFERENCE]["points"].items()}
    tested = {p for p, (_, point) in POINTS.items() if point.scored_by == "tests"}
    assert {p: r for p, r in results.items() if p in tested} == dict.fromkeys(tested, "passed")


@pytest.mark.parametrize("module", WRONG, ids=name)
def test_each_wrong_answer_fails_its_point_by_examples_alone(
    cards: dict[str, Card], module: Path
) -> None:
    point = fails(module)
    score = cards[name(module)]["points"].get(point, {})
    assert score.get("result") == "failed", f"{name(module)} should fail {point}: {score}"


@pytest.mark.parametrize("module", WRONG, ids=name)
def test_each_wrong_answer_is_named_first_as_its_own_mistake(
    cards: dict[str, Card], module: Path
) -> None:
    named = [m["id"] for m in cards[name(module)]["mistakes"]]
    assert named, f"{name(module)}: no mistake named"
    assert named[0] == mistake_id(module), f"{name(module)}: named {named}"
    first = cards[name(module)]["mistakes"][0]
    assert first["point"] == fails(module), first


@pytest.mark.parametrize("module", RIGHT, ids=name)
def test_each_right_answer_passes_every_point_it_attempts(
    cards: dict[str, Card], module: Path
) -> None:
    points = cards[name(module)]["points"]
    failed = {p: s for p, s in points.items() if s["result"] == "failed"}
    assert not failed, f"{name(module)} is right, yet the suite failed it: {failed}"
    assert any(score["result"] == "passed" for score in points.values())


@pytest.mark.parametrize("module", STARTERS, ids=name)
def test_an_untouched_starter_attempts_no_point_and_fails_none(
    cards: dict[str, Card], module: Path
) -> None:
    """A stub still raising NotImplementedError is unwritten, not wrong: an interviewer
    scoring a candidate who ran out of time reads "not attempted", never "failed"."""
    card = cards[name(module)]
    assert list(card["exercises"].values()).count("attempted") == 1, card["exercises"]
    results = {p: s["result"] for p, s in card["points"].items()}
    assert set(results.values()) <= {"not attempted", "scored in the interview"}, results
    assert "not attempted" in results.values(), results


def _functions(outcomes: dict[str, str]) -> dict[str, set[str]]:
    """Each test function's node ids (its parametrized cases, or itself)."""
    functions: dict[str, set[str]] = {}
    for nodeid in outcomes:
        functions.setdefault(nodeid.split("[")[0], set()).add(nodeid)
    return functions


def test_every_example_test_catches_a_known_mistake_or_says_why_it_stands_alone(
    cards: dict[str, Card],
) -> None:
    """A failure message is written for a learner who made a mistake: an example test no
    mistake of the gallery fails has never been shown to tell anyone anything.  So each
    one catches at least one known mistake, or is marked `@pytest.mark.alone(why)`.  A
    property test is the backstop for what no example foresaw (each mistake must fail by
    examples alone, so that no seed decides a verdict): it is not asked to be the one."""
    reference = cards[REFERENCE]
    caught = {
        nodeid
        for impl, card in cards.items()
        if "/wrong_" in impl
        for nodeid, outcome in card["outcomes"].items()
        if outcome == "failed"
    }
    properties, alone = set(reference["properties"]), reference["alone"]
    functions = _functions(reference["outcomes"])
    uncaught = sorted(
        function
        for function, ids in functions.items()
        if not ids & caught and not ids & properties and not ids & alone.keys()
    )
    assert not uncaught, "no known mistake fails these, and they do not say why:\n" + "\n".join(
        uncaught
    )
    stale = sorted(f for f, ids in functions.items() if ids & alone.keys() and ids & caught)
    assert not stale, "marked alone, yet a known mistake fails them:\n" + "\n".join(stale)
