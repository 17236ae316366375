"""A mock interview: one exercise's session, from its plan, on a clock.

The session opens with the question and the clarifying phase, then shows the
steps one at a time: a step when its planned minute comes, or as soon as a
check passes every point of the step before it, whichever is first.  At the
prompt the candidate types ``check`` (the check of ``python -m kata check``;
each point's time is kept from the first check it passes), ``hint`` (the
current step's next hint, which caps its points as RUBRIC.md says), ``next``
(the next step now), ``done``; the end of the time ends the session at the
next command.  At the end comes the scorecard: when each point passed
against the plan, the hints and their caps, and for each spoken step its
questions with the model answers to grade oneself against.

Nothing here reads the wall clock or the keyboard: the clock, the prompt,
the output and the check are given (`run`), so a test drives a whole session
with a fake clock, a script of commands and a check that answers as told.
The command line (`kata.cli`) gives the real ones: ``time.monotonic``,
``input``, ``print`` and `kata_check`.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import textwrap
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from kata.plan import CAPS, RUNGS, Plan, Step

Clock = Callable[[], float]  # seconds, on a clock that never goes back (time.monotonic)
Ask = Callable[[str], str]  # shows a prompt, returns the line typed; EOFError when there is none
Say = Callable[[str], None]  # shows a line
# The check: the hints taken (a step's name -> its highest rung) -> the points that pass.
Check = Callable[[Mapping[str, int]], Collection[str]]

COMMANDS = "check, hint (or hint N), next, done; Enter shows the clock"


@dataclass(frozen=True)
class Hint:
    step: Step
    rung: int
    at: float  # seconds into the session


@dataclass
class Session:
    """What happened in one mock interview: what was shown, passed and asked, and when."""

    found: Plan
    seconds: float  # the session's length
    say: Say
    shown: dict[int, float] = field(default_factory=dict)  # step number -> when it was shown
    passed: dict[str, float] = field(default_factory=dict)  # point -> the first check it passed
    hints: list[Hint] = field(default_factory=list)
    ended: float = 0.0
    why: str = ""  # what ended it

    @property
    def pace(self) -> float:
        """Seconds of this session for a minute of the plan: 60, unless the plan is scaled."""
        return self.seconds / self.found.minutes

    def begins(self, step: Step) -> float:
        """When `step` is planned to begin, in seconds into the session."""
        return self.found.begins(step) * self.pace

    def ends(self, step: Step) -> float:
        return (self.found.begins(step) + step.minutes) * self.pace

    def current(self) -> Step | None:
        """The step shown last: the one a hint is about."""
        return self.found.steps[len(self.shown) - 1] if self.shown else None

    def upcoming(self) -> Step | None:
        """The next step to show (None: every step is shown)."""
        steps = self.found.steps
        return steps[len(self.shown)] if len(self.shown) < len(steps) else None

    def rung(self, step: Step) -> int:
        """The highest hint taken on `step` (0: none)."""
        return max((hint.rung for hint in self.hints if hint.step == step), default=0)

    def passed_step(self, step: Step) -> bool:
        """A written step whose points have all passed a check (a spoken one never does)."""
        return not step.interview and all(point in self.passed for point in step.points)

    # --- what the candidate does ------------------------------------------------------

    def show_due(self, now: float) -> None:
        """Show every step whose time has come, or whose step before it has passed."""
        while (step := self.upcoming()) is not None:
            before = self.current()
            if now >= self.begins(step) or (before is not None and self.passed_step(before)):
                self.show(step, now)
            else:
                return

    def show(self, step: Step, now: float) -> None:
        self.shown[step.number] = now
        found = self.found
        planned = f"planned {_clock(self.begins(step))}-{_clock(self.ends(step))}"
        kind = "spoken: say it, then next" if step.interview else f"write {', '.join(step.writes)}"
        self.say("")
        self.say(
            f"{_clock(now)}  Step {step.number} of {len(found.steps)}: {step.title} "
            f"({planned}; {kind})"
        )
        self.say(_wrapped(step.task))
        if step.rules:
            titles = found.exercise.rules()
            rules = "; ".join(f"{number}. {titles[number]}" for number in step.rules)
            self.say(_wrapped(f"Rules ({found.exercise.contract}): {rules}", hang=4))

    def take_hint(self, now: float, which: str) -> None:
        step = self._hinted(which)
        if step is None:
            return
        rung = self.rung(step) + 1
        if rung > len(RUNGS):
            self.say(f"Step {step.number} has no more hints: all {len(RUNGS)} were taken.")
            return
        self.hints.append(Hint(step, rung, now))
        self.say(
            f"Hint {rung} of {len(RUNGS)} for step {step.number}, {step.name} ({RUNGS[rung - 1]}):"
        )
        self.say(_wrapped(step.hints[rung - 1]))
        self.say(f"  (It caps {', '.join(step.points)} at {CAPS[rung - 1]}.)")

    def _hinted(self, which: str) -> Step | None:
        """The step a hint is asked for: the current one, or the one named, if shown."""
        if not which:
            step = self.current()
            if step is None:
                self.say("No step yet: ask your clarifying questions, or type next for step 1.")
            return step
        try:
            step = self.found.named(which)
        except KeyError as unknown:
            self.say(str(unknown.args[0]))
            return None
        if step.number not in self.shown:
            self.say(f"Step {step.number} is not shown yet: a hint is for a step you have seen.")
            return None
        return step

    def record_check(self, now: float, passing: Collection[str]) -> None:
        """Keep each point's first pass, say what changed, and show what that lets through."""
        points = [point for step in self.found.steps for point in step.points]
        new = [p for p in points if p in passing and p not in self.passed]
        for point in new:
            self.passed[point] = now
        shown = [s for s in self.found.steps if s.number in self.shown and not s.interview]
        waiting = [p for s in shown for p in s.points if p not in self.passed]
        self.say(
            f"{_clock(now)}  check: "
            + (f"passed for the first time: {', '.join(new)}" if new else "nothing new passed")
            + (f"; still to pass: {', '.join(waiting)}" if waiting else "")
        )
        self.show_due(now)

    def end(self, now: float, why: str) -> None:
        self.ended, self.why = now, why


def run(
    found: Plan,
    *,
    clock: Clock,
    ask: Ask,
    say: Say,
    check: Check,
    minutes: int | None = None,
    file: str = "",
) -> Session:
    """A mock interview of `found`, `minutes` long (the plan's by default, its steps'
    minutes scaled to fit); the scorecard is said at the end, and the session returned."""
    began = clock()
    session = Session(found, (minutes or found.minutes) * 60, say)
    _open(session, file)
    while not session.why:
        now = clock() - began
        session.show_due(now)
        if now >= session.seconds:
            session.end(session.seconds, "the time is up")
            break
        try:
            line = ask(f"[{_clock(now)} of {_clock(session.seconds)}] {_where(session)}> ")
        except EOFError:
            session.end(clock() - began, "the input ended")
            break
        _command(session, line.strip(), clock() - began, check)
    for line in scorecard(session):
        say(line)
    return session


def _open(session: Session, file: str) -> None:
    found = session.found
    say = session.say
    say(
        f"Mock interview: {found.exercise.name} ({found.exercise.title}), "
        f"{_clock(session.seconds)} on the clock" + (f", on {file}." if file else ".")
    )
    say(f"Commands: {COMMANDS}.")
    say("")
    say("The question:")
    say(_wrapped(found.question))
    clarify = session.begins(found.steps[0])
    say(
        f"Clarifying questions (0:00-{_clock(clarify)}): ask yours first, out loud or on "
        "paper; then next, or wait for step 1."
    )


def _command(session: Session, line: str, now: float, check: Check) -> None:
    """Do what the candidate typed, at `now` (a command typed after the end is not done)."""
    if now >= session.seconds:
        session.end(session.seconds, "the time is up")
        return
    session.show_due(now)
    word, _, rest = line.partition(" ")
    if word == "":
        session.say(f"{_clock(now)} of {_clock(session.seconds)}")
    elif word == "check":
        taken = {hint.step.name: session.rung(hint.step) for hint in session.hints}
        session.record_check(now, check(taken))
    elif word == "hint":
        session.take_hint(now, rest.strip())
    elif word == "next":
        upcoming = session.upcoming()
        if upcoming is None:
            session.say("That was the last step: type done to see the scorecard.")
        else:
            session.show(upcoming, now)
    elif word == "done":
        session.end(now, "done")
    else:
        session.say(f"{line!r}: not a command. Commands: {COMMANDS}.")


def _where(session: Session) -> str:
    step = session.current()
    return f"step {step.number}" if step else "clarifying"


# --- the scorecard ------------------------------------------------------------------------


def scorecard(session: Session) -> list[str]:
    """The end of a session: each step's points with their times, the hints, the spoken
    steps' questions with the model answers, and the clarifying questions to compare."""
    found = session.found
    lines = [
        "",
        f"==== mock interview scorecard: {found.exercise.name}, ended at "
        f"{_clock(session.ended)} of {_clock(session.seconds)} ({session.why}) ====",
    ]
    for step in found.steps:
        lines += _step_lines(session, step)
    lines += _hint_lines(session)
    lines += _spoken_lines(session)
    lines += ["", "Clarifying questions a strong candidate asks first (which did you ask?):"]
    lines += [_wrapped(f"[ ] {question}", hang=6) for question in found.clarifying]
    return lines


def _step_lines(session: Session, step: Step) -> list[str]:
    planned = f"planned {_clock(session.begins(step))}-{_clock(session.ends(step))}"
    shown = session.shown.get(step.number)
    head = f"Step {step.number}, {step.name} ({planned}"
    if shown is None:
        return [f"{head}): not reached"]
    head += f", shown at {_clock(shown)})"
    rung = session.rung(step)
    cap = f"; capped at {CAPS[rung - 1]} (hint {rung})" if rung else ""
    if step.interview:
        return [f"{head}: spoken, grade it below{cap}"]
    lines = [head]
    for point in step.points:
        at = session.passed.get(point)
        if at is None:
            lines.append(f"  {point:<22}not passed")
            continue
        took = (
            f"{_clock(at - shown)} after the step was shown"
            if at >= shown
            else "before the step was shown"
        )
        lines.append(f"  {point:<22}passed at {_clock(at)}, {took}{cap}")
    return lines


def _hint_lines(session: Session) -> list[str]:
    if not session.hints:
        return ["Hints taken: none"]
    return [
        f"Hints taken: {len(session.hints)}",
        *(
            f"  {_clock(hint.at):>6}  step {hint.step.number}, {hint.step.name}: rung {hint.rung} "
            f"({RUNGS[hint.rung - 1]}), caps its points at {CAPS[hint.rung - 1]}"
            for hint in session.hints
        ),
    ]


def _spoken_lines(session: Session) -> list[str]:
    """Each spoken step: its question, the model answers to tick, what each grade sounds like."""
    lines: list[str] = []
    for step in (s for s in session.found.steps if s.interview):
        lines += [
            "",
            f"Spoken, step {step.number} ({', '.join(step.points)}): {step.title}",
            _wrapped(step.task),
            "  Model answers: tick what yours said (four or more is strong):",
            *(_wrapped(f"[ ] {item}", hang=6) for item in step.checklist),
            *(
                _wrapped(f"{grade.capitalize()}: {line}", hang=4)
                for grade, line in zip(CAPS, step.grades, strict=True)
            ),
        ]
    return lines


def _clock(seconds: float) -> str:
    whole = max(int(seconds), 0)
    return f"{whole // 60}:{whole % 60:02d}"


def _wrapped(text: str, hang: int = 2) -> str:
    return textwrap.fill(
        " ".join(text.split()),
        88,
        initial_indent="  ",
        subsequent_indent=" " * hang,
        break_on_hyphens=False,
    )


# --- the real check ---------------------------------------------------------------------------


def kata_check(exercise: str, file: Path, pytest_options: Sequence[str] = ()) -> Check:
    """The check of ``python -m kata check FILE``, run in a process of its own, its output
    shown as it comes: the points that pass.  It runs in a folder of its own, whose
    ``.kata.json`` names this exercise and the hints taken, so the check judges the
    right exercise, caps as the session does, and leaves the candidate's own state alone."""

    def check(hints: Mapping[str, int]) -> set[str]:
        with tempfile.TemporaryDirectory(prefix="kata-mock-") as folder:
            entry = {"file": str(file), "step": 1, "hints": dict(hints)}
            state = {"current": exercise, "exercises": {exercise: entry}}
            (Path(folder) / ".kata.json").write_text(json.dumps(state))
            card_path = Path(folder) / "card.json"
            command = [sys.executable, "-m", "kata", "check", str(file), "--json", str(card_path)]
            if pytest_options:
                command += ["--", *pytest_options]
            sys.stdout.flush()  # what was said comes before the check's own output
            # The session's input is the candidate's: the check never reads it.
            subprocess.run(
                command, cwd=folder, check=False, env=_environment(), stdin=subprocess.DEVNULL
            )
            if not card_path.exists():
                return set()
            return passing(json.loads(card_path.read_text()), exercise)

    return check


def passing(card: Mapping[str, Any], exercise: str) -> set[str]:
    """The points a scorecard passes: each passed point, and each point of a passed step
    (whose tests still waiting for a later step's function are not its own to pass)."""
    points = {name for name, entry in card.get("points", {}).items() if entry["result"] == "passed"}
    for step in card.get("steps", {}).get(exercise, []):
        if step["result"] == "passed":
            points.update(step["points"])
    return points


def _environment() -> dict[str, str]:
    """This process's environment, with this package importable from any folder."""
    here = str(Path(__file__).resolve().parents[1])
    inherited = os.environ.get("PYTHONPATH", "")
    return {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in (here, inherited) if p)}
