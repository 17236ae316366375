"""The kata's command line: start an exercise, a step at a time, check it, ask for a hint.

    python -m kata list                       # the exercises
    python -m kata start detector             # my_detector.py, and the first step
    python -m kata check                      # the steps written so far, and the next
    python -m kata step                       # the current step again (or: step detector 3)
    python -m kata hint                       # the next rung of the current step's hints
    python -m kata interview detector         # the spoken steps; --reveal for the checklist
    python -m kata card detector              # the interviewer's card: a session on a page
    python -m kata mock detector              # a timed mock interview (--minutes N, --file F)
    python -m kata check -- -k boundary       # after --, options for pytest
    python -m kata check --page card.html     # also the scorecard as a page to keep

What a candidate did is kept in ``.kata.json`` in the current folder: the
exercise and file started, the step reached, the hints taken (they go on
the scorecard).  ``check`` is the pytest plugin's verdict (`kata.plugin`),
run with ``--steps``: the same tests, judges and scorecard as
``python -m pytest --impl FILE --rubric``.  ``--json PATH`` also writes
the scorecard as JSON, ``--page PATH`` as a page to keep (`kata.page`: one
HTML file, or Markdown if PATH ends in .md), both from the same data: the
module's path and SHA-256, when it was judged, the kata's version and each
contract's revision, every point with its verdict and seconds, the mistakes
named with their witness, the hints taken.  Exit status: that of the
check (0: nothing failed, 1: a test failed); 2 for a bad command.

``card`` prints the card RUBRIC.md opens the exercise's section with (`kata.card`,
written from the plan): the minutes, the question, the clarifying questions, each
step with what strong, adequate and weak sound like and its hints.  ``mock`` runs
a session of the exercise on a clock (`kata.mock`): the question, the clarifying
phase, then each step at its planned minute, or as soon as a check passes the
step before it; at its prompt ``check`` (the check above, on the file: ``--file``,
else the one started, else ``my_EXERCISE.py``, copied from the starter if it does
not exist; after ``--``, options for its pytest), ``hint``, ``next`` and ``done``.
At the end, the scorecard: when each point passed, the hints, and the spoken
steps' model answers.  ``--minutes N`` scales the plan to N minutes.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import tempfile
import textwrap
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from kata import card as cards
from kata import mock
from kata.exercises import EXERCISES, ROOT
from kata.plan import CAPS, RUNGS, Plan, Step, plan

STATE = Path(".kata.json")
USAGE_ERROR = 2
READER_GONE = 128 + 13  # the status a shell gives a tool its closed pipe ended (SIGPIPE)


class RefusedError(Exception):
    """A command that cannot be done as asked: the message says why, and what to do."""


def main(argv: Sequence[str] | None = None) -> int:
    """Run a command; what follows ``--`` goes to pytest (``check -- -k boundary``)."""
    given = list(sys.argv[1:] if argv is None else argv)
    split = given.index("--") if "--" in given else len(given)
    arguments = _parser().parse_args(given[:split])
    arguments.pytest = given[split + 1 :]
    try:
        result: int = arguments.run(arguments)
        sys.stdout.flush()
    except RefusedError as refused:
        print(f"kata: {refused}", file=sys.stderr)
        return USAGE_ERROR
    except BrokenPipeError:
        # The reader stopped early (`| head`): end quietly, as a tool killed by SIGPIPE
        # does, and let nothing try to write to the closed pipe again at exit.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return READER_GONE
    return result


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m kata",
        description="The heartbeat kata: an exercise a step at a time, judged by its tests.",
        allow_abbrev=False,
    )
    commands = parser.add_subparsers(required=True, metavar="COMMAND")

    listing = commands.add_parser("list", help="the exercises", allow_abbrev=False)
    listing.set_defaults(run=_list)

    start = commands.add_parser("start", help="copy a starter, show step 1", allow_abbrev=False)
    start.add_argument("exercise", choices=EXERCISES)
    start.add_argument("--file", help="where the copy goes (default: my_EXERCISE.py)")
    start.set_defaults(run=_start)

    check = commands.add_parser(
        "check", help="judge your module, a step at a time", allow_abbrev=False
    )
    check.add_argument("file", nargs="?", help="your module (default: the one started)")
    check.add_argument("--all", action="store_true", help="every step, even after one that fails")
    check.add_argument("--json", metavar="PATH", help="also write the scorecard as JSON")
    check.add_argument(
        "--page", metavar="PATH", help="also write the scorecard as a page (HTML; .md: Markdown)"
    )

    check.set_defaults(run=_check)

    step = commands.add_parser("step", help="a step's task and rules", allow_abbrev=False)
    step.add_argument("exercise", nargs="?", choices=EXERCISES)
    step.add_argument("number", nargs="?", help="a step's number or name (default: current)")
    step.set_defaults(run=_step)

    hint = commands.add_parser("hint", help="the next hint of a step", allow_abbrev=False)
    hint.add_argument("exercise", nargs="?", choices=EXERCISES)
    hint.add_argument("number", nargs="?", help="a step's number or name (default: current)")
    hint.set_defaults(run=_hint)

    interview = commands.add_parser(
        "interview", help="the question, the minutes, the spoken steps", allow_abbrev=False
    )
    interview.add_argument("exercise", nargs="?", choices=EXERCISES)
    interview.add_argument(
        "--reveal", action="store_true", help="show what a strong spoken answer covers"
    )
    interview.set_defaults(run=_interview)

    card = commands.add_parser(
        "card", help="the interviewer's card: the session on a page", allow_abbrev=False
    )
    card.add_argument("exercise", choices=EXERCISES)
    card.set_defaults(run=_card)

    rehearse = commands.add_parser("mock", help="a timed mock interview", allow_abbrev=False)
    rehearse.add_argument("exercise", choices=EXERCISES)
    rehearse.add_argument(
        "--minutes", type=int, help="the session's length (default: the plan's); steps scale"
    )
    rehearse.add_argument("--file", help="your module (default: the one started)")
    rehearse.set_defaults(run=_mock)
    return parser


# --- the commands --------------------------------------------------------------------------


def _list(arguments: argparse.Namespace) -> int:
    for name, exercise in EXERCISES.items():
        found = plan(name)
        print(f"{name:<10} {exercise.title} ({len(found.steps)} steps, {found.minutes} min)")
    print("Start one: python -m kata start detector")
    return 0


def _start(arguments: argparse.Namespace) -> int:
    exercise = EXERCISES[arguments.exercise]
    target = Path(arguments.file or f"my_{exercise.name}.py")
    if target.exists():
        raise RefusedError(
            f"{target} already exists: keep working on it (python -m kata check {target}), "
            "or give --file another name"
        )
    shutil.copyfile(exercise.starter, target)
    state = _state()
    state["current"] = exercise.name
    state.setdefault("exercises", {})[exercise.name] = {"file": str(target), "step": 1, "hints": {}}
    _save(state)
    found = plan(exercise.name)
    print(f"{target}: the starter of {exercise.name} ({exercise.title}).")
    print(f"The question: {found.question}")
    print(f"Ask first ({found.clarify_minutes} min): " + " ".join(found.clarifying[:2]) + " ...")
    print()
    _show(found, found.steps[0])
    return 0


def _check(arguments: argparse.Namespace) -> int:
    import pytest

    state = _state()
    exercise, entry = _current(state, None, required=False)
    file = arguments.file or (entry or {}).get("file")
    if not file:
        raise RefusedError("which module? python -m kata check my_detector.py (or start one first)")
    if not Path(file).is_file() and not file.replace(".", "").replace("_", "").isalnum():
        raise RefusedError(f"{file}: no such file")
    with tempfile.TemporaryDirectory(prefix="kata-card-") as folder:
        card_path = Path(folder) / "card.json"
        options = [
            f"--impl={Path(file).resolve() if Path(file).is_file() else file}",
            "--rubric",
            f"--rubric-json={card_path}",
            "-p",
            "no:cacheprovider",
            f"--rootdir={ROOT}",
            f"--config-file={_pytest_config()}",
            "-q",
            "-rfE",  # failures and errors summed up; skips are the scorecard's
        ]
        if not arguments.all:
            options.append("--steps")
        if arguments.page:
            options.append(f"--rubric-page={Path(arguments.page).resolve()}")
        for step_name, rung in ((entry or {}).get("hints") or {}).items():
            options.append(f"--hint={exercise}/{step_name}={rung}")
        # The exercise's tests; not knowing it, all of them (only those of the exercises
        # the module attempts are collected).
        options.append(str(EXERCISES[exercise].tests if exercise else ROOT / "tests"))
        options += arguments.pytest
        status = int(pytest.main(options))
        card = json.loads(card_path.read_text()) if card_path.exists() else None
    if arguments.json and card is not None:
        Path(arguments.json).write_text(json.dumps(card, indent=2) + "\n")
    if card is not None and exercise is not None and entry is not None:
        upcoming = card.get("next_step", {}).get(exercise)
        entry["step"] = upcoming or len(plan(exercise).steps)
        _save(state)
    if status == pytest.ExitCode.USAGE_ERROR:
        return USAGE_ERROR
    return 0 if status == pytest.ExitCode.OK else 1  # stopped at an unwritten step is OK


def _step(arguments: argparse.Namespace) -> int:
    state = _state()
    exercise, entry = _current(state, arguments.exercise)
    found = plan(exercise)
    _show(found, _chosen(found, arguments.number, entry))
    return 0


def _hint(arguments: argparse.Namespace) -> int:
    state = _state()
    exercise, entry = _current(state, arguments.exercise)
    found = plan(exercise)
    step = _chosen(found, arguments.number, entry)
    hints: dict[str, int] = entry.setdefault("hints", {}) if entry is not None else {}
    rung = hints.get(step.name, 0) + 1
    if rung > len(RUNGS):
        print(f"Step {step.number} ({step.name}) has no more hints; all {len(RUNGS)} were taken:")
        rung = len(RUNGS)
    hints[step.name] = rung
    _save(state)
    print(f"Hint {rung} of {len(RUNGS)} for step {step.number}, {step.name} ({RUNGS[rung - 1]}):")
    print(_wrapped(step.hints[rung - 1]))
    print(
        f"(In an interview this caps the step's points at {CAPS[rung - 1]}: "
        f"{', '.join(step.points)}. The scorecard lists it.)"
    )
    return 0


def _interview(arguments: argparse.Namespace) -> int:
    state = _state()
    exercise, _ = _current(state, arguments.exercise)
    found = plan(exercise)
    print(f"The question: {found.question}")
    print(f"A session of {found.minutes} minutes:")
    print(f"  {found.clarify_minutes:>2} min  clarifying questions, before any code")
    for step in found.steps:
        kind = "say" if step.interview else "write"
        print(f"  {step.minutes:>2} min  {step.number}. {step.title} ({kind})")
    for step in (s for s in found.steps if s.interview):
        print()
        print(f"Step {step.number}, spoken: {step.title}")
        print(_wrapped(step.task))
        if arguments.reveal:
            print("A strong answer covers (tick what yours did; four or more is strong):")
            print("\n".join(_wrapped(f"[ ] {item}", hang=6) for item in step.checklist))
        else:
            print(
                f"Answer it first, out loud or on paper; then: "
                f"python -m kata interview {exercise} --reveal"
            )
    if found.followups and arguments.reveal:
        print()
        print("Then the follow-ups, as far as time allows (ask, answer, then look):")
        for number, (ask, answer) in enumerate(found.followups, 1):
            print(_wrapped(f"{number}. {ask.replace('**', '')}", hang=5))
            print(_wrapped(answer.replace("**", ""), hang=5).replace("  ", "     ", 1))
    return 0


def _card(arguments: argparse.Namespace) -> int:
    width = min(max(shutil.get_terminal_size((88, 24)).columns, 60), 100)
    print(cards.terminal(cards.card(plan(arguments.exercise)), width), end="")
    return 0


def _mock(arguments: argparse.Namespace) -> int:
    found = plan(arguments.exercise)
    if arguments.minutes is not None and arguments.minutes < 1:
        raise RefusedError(f"--minutes {arguments.minutes}: a session lasts a minute at least")
    file = _mock_file(arguments.exercise, arguments.file)
    mock.run(
        found,
        clock=time.monotonic,
        ask=_ask,
        say=print,
        check=mock.kata_check(arguments.exercise, file.resolve(), arguments.pytest),
        minutes=arguments.minutes,
        file=str(file),
    )
    return 0


def _mock_file(exercise: str, given: str | None) -> Path:
    """The module a mock interview checks: the one given, else the one started, else
    my_EXERCISE.py, copied from the starter when it does not exist yet."""
    started = _state().get("exercises", {}).get(exercise, {}).get("file")
    file = Path(given or started or f"my_{exercise}.py")
    if not file.exists():
        if given:
            raise RefusedError(f"{file}: no such file")
        shutil.copyfile(EXERCISES[exercise].starter, file)
        print(f"{file}: the starter of {exercise}, copied for this session.")
    return file


def _ask(prompt: str) -> str:
    """A line typed at the prompt; Ctrl-C ends the session as the end of input does."""
    try:
        return input(prompt)
    except KeyboardInterrupt:
        print()
        raise EOFError from None


# --- state and text ---------------------------------------------------------------------


def _state() -> dict[str, Any]:
    if not STATE.exists():
        return {}
    try:
        loaded = json.loads(STATE.read_text())
    except (OSError, ValueError) as error:
        raise RefusedError(
            f"{STATE}: cannot be read ({error}); delete it to start afresh"
        ) from None
    if not isinstance(loaded, dict):
        raise RefusedError(f"{STATE}: not a kata state file; delete it to start afresh")
    return loaded


def _save(state: dict[str, Any]) -> None:
    STATE.write_text(json.dumps(state, indent=2) + "\n")


def _current(
    state: dict[str, Any], exercise: str | None, *, required: bool = True
) -> tuple[Any, Any]:
    """The exercise named, else the one started last, and what is kept for it."""
    chosen = exercise or state.get("current")
    if chosen is None:
        if required:
            raise RefusedError(
                "which exercise? name it, or start one: python -m kata start detector"
            )
        return None, None
    if chosen not in EXERCISES:
        raise RefusedError(f"{STATE}: unknown exercise {chosen!r}; delete it to start afresh")
    return chosen, state.setdefault("exercises", {}).setdefault(chosen, {"hints": {}})


def _chosen(found: Plan, number: str | None, entry: dict[str, Any] | None) -> Step:
    if number is None:
        current = int((entry or {}).get("step", 1))
        return found.steps[min(max(current, 1), len(found.steps)) - 1]
    try:
        return found.named(number)
    except KeyError as error:
        raise RefusedError(str(error.args[0])) from None


def _show(found: Plan, step: Step) -> None:
    rules = found.exercise.rules()
    kind = "spoken" if step.interview else f"writes {', '.join(step.writes)}"
    print(
        f"Step {step.number} of {len(found.steps)}: {step.title} "
        f"({step.minutes} min in an interview; {kind})"
    )
    print(_wrapped(step.task))
    if step.rules:
        print(f"The rules it asks for ({found.exercise.contract}):")
        for number in step.rules:
            print(f"  {number}. {rules[number]}")
    if step.interview:
        print(f"Then: python -m kata interview {found.exercise.name}")
    else:
        print("Then: python -m kata check    (stuck? python -m kata hint)")


def _wrapped(text: str, hang: int = 2) -> str:
    return textwrap.fill(
        " ".join(text.split()), 88, initial_indent="  ", subsequent_indent=" " * hang
    )


def _pytest_config() -> Path:
    """The project's pytest configuration: pyproject.toml in a clone, pytest.ini in a wheel."""
    ini = ROOT / "pytest.ini"
    return ini if ini.exists() else ROOT / "pyproject.toml"
