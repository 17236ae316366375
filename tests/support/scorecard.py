"""The rubric scorecard: a pytest plugin that groups outcomes by rubric point.

A point is *passed* when all its tests pass, *failed* when any fails (each
failure's "Likely mistake" is listed), and *not attempted* when the module
under test does not provide the name its tests need.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from tests.support.rubric import POINTS


class Scorecard:
    """Registered as a plugin by conftest; `points` maps each kept test to its point."""

    def __init__(self, *, source: str, print_card: bool, json_path: str | None) -> None:
        self.source, self.print_card, self.json_path = source, print_card, json_path
        self.points: dict[str, str] = {}  # nodeid -> rubric point
        self.outcomes: dict[str, str] = {}  # nodeid -> passed / failed / skipped
        self.mistakes: dict[str, list[str]] = {}  # point -> distinct mistakes named

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        point = self.points.get(report.nodeid)
        if point not in POINTS or self.outcomes.get(report.nodeid) == "failed":
            return
        if report.failed:
            self.outcomes[report.nodeid] = "failed"
            named = self.mistakes.setdefault(point, [])
            mistake = _mistake(report)
            if _shape(mistake) not in map(_shape, named):  # one line per kind of mistake
                named.append(mistake)
        elif report.skipped:
            self.outcomes[report.nodeid] = "skipped"
        elif report.when == "call":
            self.outcomes[report.nodeid] = "passed"

    def card(self) -> dict[str, dict[str, Any]]:
        """Each rubric point with a test in this run: its result, counts and mistakes."""
        counts = {point: Counter[str]() for point in POINTS}
        for nodeid, outcome in self.outcomes.items():
            counts[self.points[nodeid]][outcome] += 1
        card = {}
        for point, count in counts.items():
            if not count:
                continue
            result = (
                "failed" if count["failed"] else "passed" if count["passed"] else "not attempted"
            )
            card[point] = {
                "title": POINTS[point].title,
                "exercise": POINTS[point].exercise,
                "result": result,
                "passed": count["passed"],
                "failed": count["failed"],
                "not_attempted": count["skipped"],
                "mistakes": self.mistakes.get(point, []),
            }
        return card

    def pytest_terminal_summary(self, terminalreporter: Any) -> None:
        card = self.card()
        if self.json_path:
            document = {"implementation": self.source, "points": card}
            Path(self.json_path).write_text(json.dumps(document, indent=2) + "\n")
        if not self.print_card:
            return
        write = terminalreporter.write_line
        width = max(map(len, POINTS))
        terminalreporter.section(f"rubric scorecard: {self.source}")
        for point, score in card.items():
            if score["result"] == "not attempted":
                tests = f"{score['not_attempted']} skipped"
            else:
                tests = f"{score['passed']} of {score['passed'] + score['failed']} passed"
            write(f"{score['result'].upper():<14} {point:<{width}} {score['title']} ({tests})")
            for mistake in score["mistakes"]:
                write(f"{'':<15}mistake: {mistake}")
        attempted = [s for s in card.values() if s["result"] != "not attempted"]
        passed = sum(s["result"] == "passed" for s in attempted)
        exercises = {s["exercise"] for s in attempted}
        for point, rubric in POINTS.items():
            if rubric.evidence == "benchmark" and rubric.exercise in exercises:
                write(
                    f"{'BENCHMARK':<14} {point:<{width}} {rubric.title}: not scored by tests; run "
                    f"python benchmarks/{rubric.exercise}.py --check-scaling --impl {self.source}"
                )
        write(
            f"{passed} of {len(attempted)} attempted points passed; "
            f"{len(card) - len(attempted)} not attempted"
        )


def _shape(mistake: str) -> str:
    """A mistake's text with its numbers blanked: the same kind of mistake, other values."""
    return re.sub(r"-?[0-9]+(?:/[0-9]+)?|'[^']*'", "#", mistake)


def _mistake(report: pytest.TestReport) -> str:
    """The failure's "Likely mistake", else its first line."""
    text = report.longreprtext
    named = re.search(r"Likely mistake: (.*)", text)
    if named:
        return named.group(1).strip()
    crash = getattr(report.longrepr, "reprcrash", None)
    message = str(getattr(crash, "message", "") or text.strip() or "failed")
    return message.splitlines()[0]
