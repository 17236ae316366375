"""The rubric scorecard: outcomes grouped by rubric point, mistakes named once.

A point is *passed* when all its tests pass, *failed* when any fails,
*partial* when some pass and the rest were not attempted (the module lacks a
name they need), and *not attempted* when none ran.

Each failed test carries the known mistakes (gallery ids) that answer as the
candidate did.  A mistake is reported once, on its own point (its FAILS) if
that point failed, else on the first failed point it explains; every other
failed point it explains says "explained by" instead of naming another
mistake.  Failures no known mistake explains are listed as symptoms.  The
limits the module reached (a call stopped at the time limit, an exit, a
crash, its output) have lines of their own, after the points.

Each attempted exercise's steps (`kata.plan`) follow: a step is *passed*
when its points are, *failed* when one fails, *not run* when the check
stopped at an earlier failing step; the first step not passed is the next
one.  Hints taken are listed with what they cap.

Every scorecard records what it was judged against: the kata's version
(`kata.version`) and each exercise's contract revision (`kata.exercises`;
CHANGELOG.md says what each revision changed).  The JSON adds the module's
files with their SHA-256, when it was judged, each point's seconds and each
failure's own words; the page (`kata.page`) is rendered from that same data.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from hypothesis import is_hypothesis_test

from kata import catalogue, page
from kata.exercises import EXERCISES, POINTS
from kata.impl import Kata
from kata.plan import CAPS, RUNGS, Plan, PlanError, Step, plan
from kata.process.judge import Event, Judge
from kata.version import version

MISTAKES_PROPERTY = "kata_mistakes"
SYMPTOM_PROPERTY = "kata_symptom"
FAILURE_PROPERTY = "kata_failure"  # the failure in the test's words: the call, expected, got
MAX_FAILURE = 4000  # characters of a failure's words kept on the card


def system_clock() -> datetime:
    """Now, with its offset; SOURCE_DATE_EPOCH (seconds), when set, fixes it: a card made
    again is the same card."""
    fixed = os.environ.get("SOURCE_DATE_EPOCH", "").strip()
    if fixed.isdigit():
        return datetime.fromtimestamp(int(fixed), UTC)
    return datetime.now().astimezone()


@dataclass
class _Test:
    point: str
    outcome: str = ""  # passed, failed, skipped
    mistakes: list[str] = field(default_factory=list)
    symptom: str = ""
    unwritten: str = ""  # a skipped test's function not written yet, or missing
    failure: str = ""  # a failed test's words: the call, the answer expected and the one given
    seconds: float = 0.0  # setup, call and teardown


# A skipped test's reason, when a function is not written yet or not there at all.
UNWRITTEN = re.compile(r"not attempted: (?:(\S+) is not written yet|.* provides no (\S+)$)")


class Scorecard:
    """Registered as a plugin; `points` maps each collected test to its rubric point."""

    def __init__(
        self,
        kata: Kata,
        *,
        print_card: bool,
        json_path: str | None,
        judge: Judge | None = None,
        hints: dict[str, dict[str, int]] | None = None,
        stepwise: bool = False,
        page_path: str | None = None,
        clock: Callable[[], datetime] = system_clock,
    ) -> None:
        self.kata, self.print_card, self.json_path, self.judge = kata, print_card, json_path, judge
        self.page_path, self.clock = page_path, clock
        self.files = module_files(kata)  # hashed now, as the module was loaded
        self.hints = hints or {}  # exercise -> step -> the highest rung taken
        self.stepwise = stepwise  # the run stops after the first failing step
        self.stopped_at_step = ""  # why it stopped, if it did
        self.points: dict[str, str] = {}  # nodeid -> rubric point
        self.properties: set[str] = set()  # nodeids of property tests (hypothesis)
        self.alone: dict[str, str] = {}  # nodeid -> why no known mistake fails it
        self.tests: dict[str, _Test] = {}
        self.interrupted = False  # Ctrl-C: the card covers the tests that ran

    def note_kind(self, item: pytest.Item) -> None:
        """A property test, or an example test that says why it stands alone (for the gallery)."""
        if is_hypothesis_test(getattr(item, "obj", None)):
            self.properties.add(item.nodeid)
        marker = item.get_closest_marker("alone")
        if marker is not None:
            self.alone[item.nodeid] = str(marker.args[0] if marker.args else "")

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        point = self.points.get(report.nodeid)
        if point not in POINTS:
            return
        test = self.tests.setdefault(report.nodeid, _Test(point))
        test.seconds += report.duration
        if test.outcome == "failed":
            return
        if report.failed:
            test.outcome = "failed"
            properties = dict(report.user_properties)
            named = properties.get(MISTAKES_PROPERTY, [])
            test.mistakes = [str(m) for m in named] if isinstance(named, list) else []
            test.symptom = str(properties.get(SYMPTOM_PROPERTY, "")) or _first_line(report)
            test.failure = _clipped(str(properties.get(FAILURE_PROPERTY, "")) or _message(report))
        elif report.skipped:
            test.outcome = "skipped"
            reason = report.longrepr[2] if isinstance(report.longrepr, tuple) else ""
            found = UNWRITTEN.search(str(reason))
            test.unwritten = next((g for g in found.groups() if g), "") if found else ""
        elif report.when == "call":
            test.outcome = "passed"

    def renamed(self, nodeid: str, mistakes: list[str], symptom: str) -> None:
        """A failure named again at the end of the run, with all its evidence."""
        test = self.tests.get(nodeid)
        if test is not None and test.outcome == "failed":
            test.mistakes, test.symptom = mistakes, symptom or test.symptom

    def failed_after_all(self, nodeid: str, symptom: str) -> None:
        """A test skipped as not attempted that, seen with the whole run, failed."""
        test = self.tests.get(nodeid)
        if test is not None and test.outcome == "skipped":
            test.outcome, test.symptom, test.failure = "failed", symptom, symptom

    def pytest_keyboard_interrupt(self, excinfo: pytest.ExceptionInfo[BaseException]) -> None:
        """Ctrl-C; a run stopped by its steps (`session.Interrupted`) is not interrupted."""
        self.interrupted = not isinstance(excinfo.value, pytest.Session.Interrupted)

    def any_failed(self) -> bool:
        return any(test.outcome == "failed" for test in self.tests.values())

    def card(self) -> dict[str, Any]:
        """The scorecard as data (what --rubric-json writes)."""
        counts: dict[str, Counter[str]] = {}
        for test in self.tests.values():
            counts.setdefault(test.point, Counter())[test.outcome] += 1
        failed_points = [p for p in POINTS if counts.get(p, Counter())["failed"]]
        evidence = Counter(
            m for t in self.tests.values() if t.outcome == "failed" for m in t.mistakes
        )
        home = {m: self._home(m, failed_points) for m in evidence}
        points: dict[str, Any] = {}
        for name, (exercise, point) in POINTS.items():
            if exercise.name not in self.kata.attempted:
                continue
            if point.scored_by != "tests":
                points[name] = _entry(exercise.name, point.title, "scored in the interview")
                continue
            count = counts.get(name, Counter())
            if not count:
                continue
            own = {nodeid: t for nodeid, t in self.tests.items() if t.point == name}
            failed = {nodeid: t for nodeid, t in own.items() if t.outcome == "failed"}
            named = sorted(
                {m for t in failed.values() for m in t.mistakes}, key=lambda m: -evidence[m]
            )
            unexplained = [(nodeid, t) for nodeid, t in failed.items() if not t.mistakes]
            points[name] = _entry(exercise.name, point.title, _result(count)) | {
                "passed": count["passed"],
                "failed": count["failed"],
                "not_attempted": count["skipped"],
                "seconds": round(sum(t.seconds for t in own.values()), 3),
                "mistakes": [m for m in named if home[m] == name],
                "explained_by": [m for m in named if home[m] != name],
                "symptoms": _distinct(t.symptom for _, t in unexplained),
                # The first failure no known mistake explains, in the test's words.
                "unexplained": (
                    {"test": unexplained[0][0], "failure": unexplained[0][1].failure}
                    if unexplained
                    else None
                ),
            }
        steps = {
            name: self._steps(found, self.hints.get(name, {}))
            for name in self.kata.attempted
            if (found := _plan(name)) is not None
        }
        order = {name: index for index, name in enumerate(POINTS)}
        ranked = sorted(evidence, key=lambda m: (-evidence[m], order[home[m]], m))
        return {
            "implementation": self.kata.source,
            "files": self.files,
            "judged_at": self.clock().isoformat(timespec="seconds"),
            **versions(),
            "exercises": {
                **dict.fromkeys(self.kata.attempted, "attempted"),
                **{e.name: "not attempted" for e in self.kata.not_attempted},
            },
            "points": points,
            "mistakes": [
                {
                    "id": m,
                    "title": catalogue.by_id(m).title,
                    "meaning": catalogue.by_id(m).explanation,
                    "point": home[m],
                    "failed_tests": evidence[m],
                    "witness": self._witness(m),
                    "witness_failure": self.tests[self._witness(m)].failure,
                }
                for m in ranked
            ],
            "steps": steps,
            "next_step": {name: _upcoming(rows) for name, rows in steps.items()},
            "interrupted": self.interrupted,
            "stepwise": self.stepwise,
            "stopped_at_step": self.stopped_at_step,
            "outcomes": {nodeid: test.outcome for nodeid, test in self.tests.items()},
            "properties": sorted(self.properties),
            "alone": self.alone,
            "tests_run": sum(t.outcome in ("passed", "failed") for t in self.tests.values()),
            "tests_collected": sum(point in POINTS for point in self.points.values()),
            "seconds": round(sum(t.seconds for t in self.tests.values()), 3),
            "void": self.judge.void if self.judge else "",
            "limits": _limits(self.judge.events if self.judge else []),
            "output_bytes": self.judge.run_output.total if self.judge else 0,
        }

    def step_result(self, found: Plan, step: Step) -> tuple[str, int]:
        """A step's result from its tests, and how many of them wait for a later step.

        A test skipped because a function is unwritten counts against the step that
        writes that function first: a later step's function leaves this one passed.
        """
        tests = [t for t in self.tests.values() if t.point in step.points]
        own = later = 0
        for test in (t for t in tests if t.outcome == "skipped"):
            if _owner(found, test.unwritten, step) > step.number:
                later += 1
            else:
                own += 1
        passed = sum(t.outcome == "passed" for t in tests)
        if any(t.outcome == "failed" for t in tests):
            return "failed", later
        if not tests:
            return ("not run" if self.stepwise else "not attempted"), later
        if not passed:
            return "not attempted", later
        return ("partial" if own else "passed"), later

    def _steps(self, found: Plan, hints: dict[str, int]) -> list[dict[str, Any]]:
        """Each step of `found` with its result."""
        steps = []
        for step in found.steps:
            result, waiting = ("interview", 0) if step.interview else self.step_result(found, step)
            rung = hints.get(step.name, 0)
            steps.append(
                {
                    "number": step.number,
                    "name": step.name,
                    "title": step.title,
                    "minutes": step.minutes,
                    "points": list(step.points),
                    "result": result,
                    "waiting_for_later_steps": waiting,
                    "hint": rung,
                    "capped_at": CAPS[rung - 1] if rung else "",
                }
            )
        return steps

    def _witness(self, mistake: str) -> str:
        """The first failed test that names `mistake`: where to see it, in the test's words."""
        return next(
            nodeid
            for nodeid, test in self.tests.items()
            if test.outcome == "failed" and mistake in test.mistakes
        )

    def _home(self, mistake: str, failed_points: list[str]) -> str:
        own = catalogue.by_id(mistake).point
        if own in failed_points:
            return own
        explained = {t.point for t in self.tests.values() if mistake in t.mistakes}
        return next(p for p in failed_points if p in explained)

    def pytest_unconfigure(self, config: pytest.Config) -> None:
        """Last of all, so the scorecard closes the output."""
        if not self.tests or not (self.print_card or self.json_path or self.page_path):
            return
        card = self.card()
        if self.json_path:
            Path(self.json_path).write_text(json.dumps(card, indent=2) + "\n")
        if self.page_path:
            page.write(Path(self.page_path), card)
        terminal = config.pluginmanager.get_plugin("terminalreporter")
        if self.print_card and terminal is not None:
            for line in render(card):
                terminal.write_line(line)


def render(card: dict[str, Any]) -> list[str]:
    """The scorecard as text lines."""
    points = card["points"]
    width = max(map(len, points), default=0)
    lines = ["", f"==== rubric scorecard: {card['implementation']} ====", _versions_line(card)]
    for name, score in points.items():
        result = score["result"]
        if result == "scored in the interview":
            lines.append(
                f"{'INTERVIEW':<14}{name:<{width}}  {score['title']} (spoken: python -m "
                f"kata interview {score['exercise']})"
            )
            continue
        ran = score["passed"] + score["failed"]
        tests = ", ".join(
            ([f"{score['passed']} of {ran} passed"] if ran else [])
            + ([f"{score['not_attempted']} not attempted"] if score["not_attempted"] else [])
        )
        lines.append(f"{result.upper():<14}{name:<{width}}  {score['title']} ({tests})")
        witness = {m["id"]: m["witness"] for m in card["mistakes"]}
        for m in score["mistakes"]:
            lines.append(f"{'':<16}mistake {m}: {catalogue.by_id(m).title}")
            lines.append(f"{'':<18}seen in {witness[m]}")
        for mistake in score["explained_by"]:
            seen = next(m["point"] for m in card["mistakes"] if m["id"] == mistake)
            lines.append(f"{'':<16}explained by mistake {mistake} (see {seen})")
        lines += [f"{'':<16}{symptom}" for symptom in score["symptoms"]]
    lines += _limit_lines(card)
    lines += _step_lines(card)
    skipped = [n for n, state in card["exercises"].items() if state == "not attempted"]
    if skipped and not card.get("stepwise"):  # a check in steps is one exercise's
        lines.append(f"Not attempted (no test collected): {', '.join(skipped)}")
    failed = [name for name, score in points.items() if score["result"] == "failed"]
    if failed:
        lines.append(
            f"To see one point's failures: python -m pytest --impl {card['implementation']} "
            f"-m {failed[0]}"
        )
    if card.get("interrupted"):
        lines.append(
            f"{'INTERRUPTED':<14}the run was stopped after {card['tests_run']} of "
            f"{card['tests_collected']} tests: the points above cover only the tests that ran"
        )
    if card.get("void"):
        lines.append(f"{'VOID':<14}{card['void']}: no point counts")
        lines.append("0 points passed: the run is void")
        return lines
    scored = [s for s in points.values() if s["result"] != "scored in the interview"]
    tally = Counter(s["result"] for s in scored)
    lines.append(
        f"{tally['passed']} of {len(scored)} points passed, {tally['partial']} partial, "
        f"{tally['failed']} failed, {tally['not attempted']} not attempted"
    )
    return lines


def _plan(exercise: str) -> Plan | None:
    try:
        return plan(exercise)
    except (FileNotFoundError, PlanError):  # an exercise without a plan: no steps shown
        return None


def _owner(found: Plan, function: str, asking: Step) -> int:
    """The number of the first step that writes `function` ("Batcher.cancel", or a name
    missing altogether); the asking step's own if none says (a skip then counts against it)."""
    if not function:
        return asking.number
    for step in found.steps:
        for written in step.writes:
            if function == written or function.split(".")[0] == written:
                return step.number
            if written.split(".")[0] == function:  # the whole class is missing
                return step.number
    return asking.number


def _upcoming(steps: list[dict[str, Any]]) -> int | None:
    """The first step not passed (a spoken one aside): the one to write next."""
    return next((s["number"] for s in steps if s["result"] not in ("passed", "interview")), None)


def _step_lines(card: dict[str, Any]) -> list[str]:
    lines: list[str] = []
    for exercise, steps in card.get("steps", {}).items():
        lines.append(f"Steps of {exercise} (python -m kata step {exercise} N shows one):")
        for step in steps:
            hint = (
                f"; hint {step['hint']} taken ({RUNGS[step['hint'] - 1]}): its points capped "
                f"at {step['capped_at']}"
                if step["hint"]
                else ""
            )
            waiting = step.get("waiting_for_later_steps", 0)
            later = f" ({waiting} of its tests wait for later steps)" if waiting else ""
            lines.append(
                f"  {step['result'].upper():<14}{step['number']}. {step['name']}: "
                f"{step['title']}{later}{hint}"
            )
        upcoming = card.get("next_step", {}).get(exercise)
        if upcoming is not None:
            lines.append(
                f"Next: step {upcoming}, {steps[upcoming - 1]['name']} "
                f"(python -m kata step {exercise} {upcoming})"
            )
    return lines


def _limits(events: list[Event]) -> list[dict[str, Any]]:
    """The limits reached, one entry per kind, with how often and the first occasion."""
    kinds: dict[str, list[Event]] = {}
    for event in events:
        kinds.setdefault(event.kind, []).append(event)
    return [
        {
            "kind": kind,
            "count": len(seen),
            "test": seen[0].test,
            "question": seen[0].question,
            "detail": seen[0].detail.splitlines()[0],
        }
        for kind, seen in kinds.items()
    ]


LIMIT_TITLES = {
    "time limit": "TIME LIMIT",
    "test time": "TEST TIME",
    "run time": "RUN TIME",
    "not asked": "NOT ASKED",
    "exit": "EXITED",
    "void": "VOID",
}


def _limit_lines(card: dict[str, Any]) -> list[str]:
    lines = []
    for limit in card.get("limits", []):
        times = "once" if limit["count"] == 1 else f"{limit['count']} times; the first"
        title = LIMIT_TITLES.get(limit["kind"], limit["kind"].upper())
        lines.append(f"{title:<14}{limit['detail']}")
        lines.append(f"{'':<16}({times}: in {limit['test']}, during {limit['question']})")
    if card.get("output_bytes"):
        lines.append(
            f"{'OUTPUT':<14}your module printed {card['output_bytes']:,} bytes in all; each "
            "failed test shows the first and last 4 KB it printed"
        )
    return lines


def versions() -> dict[str, Any]:
    """The kata's version and every exercise's contract, with its revision."""
    return {
        "kata_version": version(),
        "contracts": {
            name: {"file": e.contract, "revision": e.revision} for name, e in EXERCISES.items()
        },
    }


def _versions_line(card: dict[str, Any]) -> str:
    attempted = [n for n, state in card["exercises"].items() if state == "attempted"]
    contracts = card["contracts"]
    revisions = ", ".join(f"{n} revision {contracts[n]['revision']}" for n in attempted)
    return f"heartbeat-kata {card['kata_version']}" + (
        f"; contracts: {revisions}" if revisions else ""
    )


def module_files(kata: Kata) -> list[dict[str, str]]:
    """The judged module's files, each with the SHA-256 of its content."""
    if Path(kata.source).is_file():
        return hashed([kata.source])
    # A dotted module, or the reference: the files its exercises were loaded from.
    return hashed(sorted({i.file for i in kata.attempted.values() if i.file}))


def hashed(found: list[str]) -> list[dict[str, str]]:
    """Each file's absolute path, and the SHA-256 of its content ("" if it cannot be read)."""
    files = []
    for name in found:
        path = Path(name).resolve()
        try:
            digest = hashlib.sha256(path.read_bytes()).hexdigest()
        except OSError:
            digest = ""
        files.append({"path": str(path), "sha256": digest})
    return files


def render_unloaded(
    source: str,
    error: str,
    json_path: str | None,
    page_path: str | None = None,
    clock: Callable[[], datetime] = system_clock,
) -> list[str]:
    """The scorecard of a module that could not be loaded (also written as JSON, or a page)."""
    document = {
        "implementation": source,
        "files": hashed([source] if Path(source).is_file() else []),
        "judged_at": clock().isoformat(timespec="seconds"),
        **versions(),
        "exercises": {},
        "error": error,
        "points": {},
        "mistakes": [],
    }
    if json_path:
        Path(json_path).write_text(json.dumps(document, indent=2) + "\n")
    if page_path:
        page.write(Path(page_path), document)
    return [
        "",
        f"==== rubric scorecard: {source} ====",
        _versions_line(document),
        f"{'NOT LOADED':<14}{error.splitlines()[0]}",
        "0 points passed: the module could not be loaded, so no test ran",
    ]


def _entry(exercise: str, title: str, result: str) -> dict[str, Any]:
    return {"exercise": exercise, "title": title, "result": result}


def _result(count: Counter[str]) -> str:
    if count["failed"]:
        return "failed"
    if not count["passed"]:
        return "not attempted"
    return "partial" if count["skipped"] else "passed"


def _distinct(symptoms: Any) -> list[str]:
    """Symptoms, one per kind (the same text with other numbers is the same kind)."""
    kept: list[str] = []
    for symptom in symptoms:
        if _shape(symptom) not in map(_shape, kept):
            kept.append(symptom)
    return kept


def _shape(text: str) -> str:
    return re.sub(r"-?[0-9]+(?:/[0-9]+)?|'[^']*'", "#", text)


def _first_line(report: pytest.TestReport) -> str:
    return _message(report).splitlines()[0]


def _message(report: pytest.TestReport) -> str:
    crash = getattr(report.longrepr, "reprcrash", None)
    return str(getattr(crash, "message", "") or report.longreprtext.strip() or "failed")


def _clipped(text: str) -> str:
    return text if len(text) <= MAX_FAILURE else text[: MAX_FAILURE - 1] + "\u2026"
