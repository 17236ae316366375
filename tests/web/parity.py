"""The page's verdicts against the command line's, on the same module: for the page's test
(tests/web/test_site.py) and tools/web_parity.py.

The command line's is ``python -m kata check FILE --json CARD`` in a folder holding only
the module and the state ``python -m kata start`` leaves (its exercise, step 1, no hints);
the page's is the same command on the same state, run by the page's judge (``kata.judge``
in the page) on the same source.  Two scorecards agree when every rubric point has the
same result and names the same known mistakes.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from kata.exercises import EXERCISES, ROOT, Exercise
from kata.plan import plan
from tests.web.browser import Chromium

PAGE_SECONDS = 240.0  # a whole scorecard of the slowest exercise, with room
EXAMPLES = "--hypothesis-profile=examples"  # example tests alone: the verdict, quickly


@dataclass(frozen=True)
class Case:
    """A module to judge both ways: its exercise, a label, its source, options for pytest
    and what they select (for its name)."""

    exercise: str
    label: str
    source: str
    args: tuple[str, ...] = ()
    scope: str = ""

    @property
    def id(self) -> str:
        return f"{self.exercise}/{self.label}" + (f" ({self.scope})" if self.scope else "")


def reference_source(exercise: Exercise) -> str:
    """A module that is the reference: its names, re-exported from the reference package."""
    names = ", ".join(sorted({*exercise.names, *exercise.types}))
    doc = f'"""The reference of {exercise.name}, re-exported."""'
    return f"{doc}\n\nfrom {exercise.reference} import {names}\n"


def first_step(exercise: str) -> tuple[str, ...]:
    """Options for pytest that run only the first written step's tests (a spoken step, the
    first of some exercises, has none)."""
    points = next(step for step in plan(exercise).steps if not step.interview).points
    return ("-m", " or ".join(points))


def starter(exercise: str) -> Case:
    return Case(exercise, "starter", EXERCISES[exercise].starter.read_text())


def reference(exercise: str, *, step_one: bool = False) -> Case:
    source = reference_source(EXERCISES[exercise])
    if step_one:
        return Case(exercise, "reference", source, first_step(exercise), "step 1")
    return Case(exercise, "reference", source)


def gallery(exercise: str, stem: str, *, step_one: bool = False, examples: bool = False) -> Case:
    """A gallery answer, whole, or on its first step; with `examples`, by example tests
    alone (the suite's `examples` profile: property tests generate nothing)."""
    source = (ROOT / "gallery" / exercise / f"{stem}.py").read_text()
    args, scope = (first_step(exercise), "step 1") if step_one else ((), "")
    if examples:
        args, scope = (*args, EXAMPLES), ", ".join(filter(None, (scope, "examples")))
    return Case(exercise, stem, source, args, scope)


def mistake(exercise: str, stem: str) -> Case:
    """A known mistake judged on the point it fails (its FAILS), by example tests alone (the
    suite's `examples` profile): the verdict the gallery's own test holds it to, quickly."""
    source = (ROOT / "gallery" / exercise / f"wrong_{stem}.py").read_text()
    found = re.search(r'^FAILS = "(\w+)"$', source, re.MULTILINE)
    if found is None:
        raise ValueError(f"gallery/{exercise}/wrong_{stem}.py declares no FAILS")
    args = ("-m", found.group(1), EXAMPLES)
    return Case(exercise, f"wrong_{stem}", source, args, f"{found.group(1)}, examples")


def every_case(exercise: str) -> list[Case]:
    """The starter, the reference and every gallery answer of `exercise`."""
    stems = sorted(path.stem for path in EXERCISES[exercise].gallery.glob("*.py"))
    return [starter(exercise), reference(exercise), *(gallery(exercise, s) for s in stems)]


def verdicts(card: dict[str, Any]) -> dict[str, tuple[str, tuple[str, ...]]]:
    """Each point's result and the known mistakes it names."""
    return {
        name: (str(point["result"]), tuple(point.get("mistakes", ())))
        for name, point in card["points"].items()
    }


def differences(
    cli: dict[str, Any], page: dict[str, Any], *, skip: frozenset[str] = frozenset()
) -> list[str]:
    """Where two scorecards disagree, a line each (none: they agree), but on `skip`: a
    point's result, or the mistakes it names (in any order: see `reordered`)."""
    ours, theirs = verdicts(cli), verdicts(page)
    return [
        f"{point}: command line {ours.get(point)}, page {theirs.get(point)}"
        for point in sorted((ours.keys() | theirs.keys()) - skip)
        if _unordered(ours.get(point)) != _unordered(theirs.get(point))
    ]


def reordered(cli: dict[str, Any], page: dict[str, Any]) -> list[str]:
    """The points that name the same mistakes in another order (another named first)."""
    ours, theirs = verdicts(cli), verdicts(page)
    return [
        point
        for point in sorted(ours.keys() & theirs.keys())
        if ours[point] != theirs[point] and _unordered(ours[point]) == _unordered(theirs[point])
    ]


def _unordered(verdict: tuple[str, tuple[str, ...]] | None) -> object:
    return None if verdict is None else (verdict[0], sorted(verdict[1]))


# The points timed in CPU time on the command line (`kata.cost`), on the clock in a page,
# where a worker's CPU time cannot be read: beside other work, they can differ.
TIMED = frozenset(
    point.name for exercise in EXERCISES.values() for point in exercise.points if point.costly
)


def cli_card(case: Case, python: str = sys.executable) -> tuple[dict[str, Any], float]:
    """The command line's scorecard of `case`, and its seconds."""
    with tempfile.TemporaryDirectory(prefix="kata-parity-") as folder:
        module = Path(folder) / f"my_{case.exercise}.py"
        module.write_text(case.source)
        # The state `python -m kata start` leaves, as the page keeps it: the exercise, its
        # file, the first step, no hints.
        entry = {"file": module.name, "step": 1, "hints": {}}
        state = {"current": case.exercise, "exercises": {case.exercise: entry}}
        (Path(folder) / ".kata.json").write_text(json.dumps(state))
        card = Path(folder) / "card.json"
        command = [python, "-m", "kata", "check", str(module), "--json", str(card)]
        if case.args:
            command += ["--", *case.args]
        began = time.monotonic()
        subprocess.run(
            command,
            cwd=folder,
            stdin=subprocess.DEVNULL,
            capture_output=True,
            check=False,
            timeout=900,
            env=_environment(),
        )
        seconds = time.monotonic() - began
        if not card.is_file():
            raise AssertionError(f"{case.id}: the command line wrote no scorecard")
        loaded: dict[str, Any] = json.loads(card.read_text())
        return loaded, seconds


def _environment() -> dict[str, str]:
    import os

    environment = {k: v for k, v in os.environ.items() if not k.startswith("PYTEST")}
    environment["PYTHONPATH"] = str(Path(__file__).resolve().parents[2])
    return environment


def page_card(
    browser: Chromium, case: Case, seconds: float = PAGE_SECONDS, *, editor: bool = False
) -> tuple[dict[str, Any], float, str]:
    """The page's scorecard of `case`, its seconds, and what it printed.  With `editor`,
    as a person runs it on the exercise's own page: typed into the editor, then Run."""
    request = {"name": case.exercise, "code": case.source, "args": list(case.args)}
    if editor:
        request.pop("name")
    call = "kata.run" if editor else "kata.judge"
    result = browser.evaluate(f"{call}({json.dumps(request)})", seconds)
    if result.get("card") is None:
        raise AssertionError(f"{case.id}: the page wrote no scorecard:\n{result.get('output')}")
    return result["card"], float(result["seconds"]), str(result["output"])
