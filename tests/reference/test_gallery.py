"""The tests, tested: the kata's suite run on every answer in gallery/ and starters/.

Each wrong answer must fail the rubric point it names (its module's FAILS),
in the suite or, for a point about cost, in that exercise's benchmark check;
each right answer, written unlike the reference, must pass every point it
attempts; an untouched starter must fail every point, saying what is not
implemented; and the reference must pass every point of the rubric.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from tests.support.rubric import POINTS, TESTED
from tests.support.subprocess_kata import run_kata

pytestmark = pytest.mark.reference

ROOT = Path(__file__).resolve().parents[2]
WRONG = sorted(ROOT.glob("gallery/*/wrong_*.py"))
RIGHT = sorted(ROOT.glob("gallery/*/right_*.py"))
STARTERS = sorted(p for p in ROOT.glob("starters/*.py") if p.name != "__init__.py")
REFERENCE = "reference"
Card = dict[str, dict[str, Any]]


def fails(module: Path) -> str:
    """The rubric point a wrong answer declares it fails (its FAILS = "...")."""
    found = re.search(r'^FAILS = "(\w+)"$', module.read_text(), re.MULTILINE)
    assert found, f"{module} declares no FAILS"
    return found.group(1)


def scorecard(impl: str, workdir: Path) -> Card:
    """Run the kata on `impl` in a fresh pytest and read its JSON scorecard."""
    out = workdir / (Path(impl).stem + ".json")
    done = run_kata("--impl", impl, "--rubric-json", str(out))
    assert out.exists(), f"no scorecard for {impl}:\n{done.stdout[-2000:]}\n{done.stderr[-2000:]}"
    card: Card = json.loads(out.read_text())["points"]
    return card


@pytest.fixture(scope="module")
def cards(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Card]:
    """Every scorecard, two runs at a time (one per core)."""
    workdir = tmp_path_factory.mktemp("scorecards")
    impls = [REFERENCE, *(str(p.relative_to(ROOT)) for p in [*WRONG, *RIGHT, *STARTERS])]
    with ThreadPoolExecutor(max_workers=2) as pool:
        return dict(zip(impls, pool.map(lambda impl: scorecard(impl, workdir), impls), strict=True))


def name(path: Path) -> str:
    return str(path.relative_to(ROOT))


def test_the_reference_passes_every_rubric_point(cards: dict[str, Card]) -> None:
    card = cards[REFERENCE]
    assert {point: score["result"] for point, score in card.items()} == dict.fromkeys(
        TESTED, "passed"
    )


def scaling_check(exercise: str, impl: str) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, f"benchmarks/{exercise}.py", "--check-scaling", "--impl", impl]
    return subprocess.run(command, cwd=ROOT, capture_output=True, text=True, check=False)


@pytest.mark.parametrize(
    "exercise", sorted({p.exercise for p in POINTS.values() if p.evidence == "benchmark"})
)
def test_the_reference_passes_every_benchmark_check(exercise: str) -> None:
    result = scaling_check(exercise, "reference")
    assert result.returncode == 0, result.stdout + result.stderr


@pytest.mark.parametrize("module", WRONG, ids=name)
def test_each_wrong_answer_fails_the_point_it_belongs_to(
    cards: dict[str, Card], module: Path
) -> None:
    point = fails(module)
    if POINTS[point].evidence == "benchmark":
        # Right answers at the wrong cost: every test passes, the benchmark check fails.
        assert not any(s["failed"] for s in cards[name(module)].values()), cards[name(module)]
        result = scaling_check(POINTS[point].exercise, name(module))
        assert result.returncode == 1, result.stdout + result.stderr
        return
    score = cards[name(module)].get(point, {})
    assert score.get("result") == "failed", f"{name(module)} should fail {point}: {score}"
    assert score["mistakes"], "a failure must name its likely mistake"


@pytest.mark.parametrize("module", RIGHT, ids=name)
def test_each_right_answer_passes_every_point_it_attempts(
    cards: dict[str, Card], module: Path
) -> None:
    card = cards[name(module)]
    failed = {point: score["mistakes"] for point, score in card.items() if score["failed"]}
    assert not failed, f"{name(module)} is right, yet the suite failed it: {failed}"
    assert any(score["result"] == "passed" for score in card.values())


@pytest.mark.parametrize("module", STARTERS, ids=name)
def test_an_untouched_starter_fails_every_point_saying_what_is_missing(
    cards: dict[str, Card], module: Path
) -> None:
    attempted = {p: s for p, s in cards[name(module)].items() if s["result"] != "not attempted"}
    assert attempted, f"{name(module)} attempted nothing"
    for point, score in attempted.items():
        assert score["result"] == "failed", f"{point}: {score}"
        assert all(m.startswith("not implemented yet") for m in score["mistakes"]), score
