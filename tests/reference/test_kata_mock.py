"""python -m kata mock: sessions on a fake clock from a script of commands, and one for real.

A script is a list of (seconds, command): the clock stands at a command's
time when it is typed, so each test says exactly when everything happens.
The check is a stand-in answering the points that pass, in turn; the last
test runs the real command, and the real check, in a process of its own.
"""

from __future__ import annotations

import sys
from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from kata import mock
from kata.exercises import EXERCISES
from kata.plan import plan
from tests.support.subprocess_kata import run_kata_command

pytestmark = pytest.mark.reference

DETECTOR = plan("detector")
RETRY_LOAD = plan("retry").named("load")  # the retries' spoken step
COMPARE = {"receive_clock", "boundary", "never_heard", "ordering"}  # step 1's points
MINUTE = 60.0
KATA = (sys.executable, "-m", "kata")


@dataclass
class Script:
    """Commands typed at given times; the clock moves to each one as it is typed."""

    typed: list[tuple[float, str]]
    now: float = 0.0
    prompts: list[str] = field(default_factory=list)

    def clock(self) -> float:
        return self.now

    def ask(self, prompt: str) -> str:
        self.prompts.append(prompt)
        if not self.typed:
            raise EOFError
        self.now, line = self.typed.pop(0)
        return line


@dataclass
class Checks:
    """A check answering, in turn, the points that pass; it keeps the hints it was told."""

    answers: list[Collection[str]]
    hints: list[dict[str, int]] = field(default_factory=list)

    def __call__(self, hints: Mapping[str, int]) -> Collection[str]:
        self.hints.append(dict(hints))
        assert self.answers, "a check the script did not expect"
        return self.answers.pop(0)


@dataclass
class Run:
    session: mock.Session
    said: str  # everything said, its whitespace folded
    prompts: list[str]
    checks: Checks


def mock_session(
    typed: Iterable[tuple[float, str]],
    answers: Iterable[Collection[str]] = (),
    *,
    exercise: str = "detector",
    minutes: int | None = None,
) -> Run:
    script, checks = Script(list(typed)), Checks(list(answers))
    said: list[str] = []
    session = mock.run(
        plan(exercise),
        clock=script.clock,
        ask=script.ask,
        say=said.append,
        check=checks,
        minutes=minutes,
    )
    return Run(session, " ".join(" ".join(said).split()), script.prompts, checks)


def test_steps_are_shown_at_their_planned_minutes() -> None:
    """Detector: 5 minutes of clarifying questions, step 1 at 5:00, step 2 at 13:00."""
    run = mock_session([(299, ""), (300, ""), (779, ""), (780, ""), (781, "done")])
    assert run.session.shown == {1: 300, 2: 780}
    assert run.prompts[1] == "[4:59 of 45:00] clarifying> "
    assert run.prompts[2] == "[5:00 of 45:00] step 1> "
    assert run.prompts[4] == "[13:00 of 45:00] step 2> "
    assert "5:00 Step 1 of 6: The comparison" in run.said
    assert "(planned 5:00-13:00; write detect)" in run.said


def test_minutes_scale_the_plan() -> None:
    """A 9-minute session is the plan at five times the pace: step 1 at 1:00."""
    run = mock_session([(59, ""), (60, ""), (61, "done")], minutes=9)
    assert run.session.shown == {1: 60}
    assert "(planned 1:00-2:36; write detect)" in run.said


def test_next_shows_the_next_step_at_once() -> None:
    run = mock_session([(10, "next"), (20, "next"), (30, "done")])
    assert run.session.shown == {1: 10, 2: 20}


def test_a_check_passing_a_step_shows_the_next_and_each_point_keeps_its_first_time() -> None:
    run = mock_session(
        [(300, ""), (400, "check"), (500, "check"), (600, "check"), (610, "done")],
        [
            {"receive_clock", "boundary"},
            COMPARE,  # step 1 passes: step 2 is shown at once, long before 13:00
            COMPARE - {"receive_clock"} | {"replay"},  # a regression keeps the first time
        ],
    )
    assert run.session.passed == {
        "receive_clock": 400,
        "boundary": 400,
        "never_heard": 500,
        "ordering": 500,
        "replay": 600,
    }
    assert run.session.shown == {1: 300, 2: 500}, "step 2 not all passed: step 3 waits"
    assert "8:20 check: passed for the first time: never_heard, ordering" in run.said
    assert "receive_clock passed at 6:40, 1:40 after the step was shown" in run.said
    assert "replay passed at 10:00, 1:40 after the step was shown" in run.said
    assert "input_order not passed" in run.said
    assert "Step 3, refuse (planned 17:00-20:00): not reached" in run.said


def test_passing_steps_one_after_another_shows_each_until_a_spoken_one() -> None:
    """A check passing steps 1 to 3 shows steps 2, 3 and 4; a spoken step waits for its
    minute or for next, since no check can pass it."""
    written = COMPARE | {"replay", "input_order", "oracle", "validation"}
    run = mock_session([(0, "next"), (120, "check"), (130, "done")], [written])
    assert run.session.shown == {1: 0, 2: 120, 3: 120, 4: 120}
    assert "validation passed at 2:00, 0:00 after the step was shown" in run.said


def test_hints_are_recorded_given_to_the_check_and_cap_the_points() -> None:
    run = mock_session(
        [
            (0, "hint"),
            (0, "next"),
            (60, "hint"),
            (120, "hint"),
            (180, "hint"),
            (190, "hint"),
            (195, "hint 2"),
            (200, "check"),
            (210, "done"),
        ],
        [{"receive_clock"}],
    )
    assert "No step yet" in run.said
    assert [(h.step.name, h.rung, h.at) for h in run.session.hints] == [
        ("compare", 1, 60),
        ("compare", 2, 120),
        ("compare", 3, 180),
    ]
    assert "Step 1 has no more hints: all 3 were taken" in run.said
    assert "Step 2 is not shown yet" in run.said
    assert run.checks.hints == [{"compare": 3}], "the check caps as the session does"
    hint = " ".join(DETECTOR.steps[0].hints[1].split())
    assert f"Hint 2 of 3 for step 1, compare (the area): {hint}" in run.said
    assert "receive_clock passed at 3:20, 3:20 after the step was shown; capped at weak" in run.said
    assert "3:00 step 1, compare: rung 3 (the answer), caps its points at weak" in run.said


def test_the_end_lists_the_spoken_steps_questions_with_their_model_answers() -> None:
    for exercise in ("detector", "retry"):
        run = mock_session([(0, "done")], exercise=exercise)
        for step in (s for s in plan(exercise).steps if s.interview):
            assert f"Spoken, step {step.number} ({', '.join(step.points)}): {step.title}" in (
                run.said
            )
            for item in step.checklist:
                assert f"[ ] {' '.join(item.split())}" in run.said
            strong, adequate, weak = step.grades
            assert f"Strong: {strong} Adequate: {adequate} Weak: {weak}" in run.said
        for question in plan(exercise).clarifying:
            assert f"[ ] {question}" in run.said


def test_the_session_ends_when_its_time_is_up_and_runs_no_later_command() -> None:
    run = mock_session([(600, "hint 9"), (45 * MINUTE + 1, "check")])
    assert (run.session.ended, run.session.why) == (45 * MINUTE, "the time is up")
    assert run.checks.hints == [], "a check typed after the end is not run"
    assert "detector has no step '9'" in run.said
    assert "ended at 45:00 of 45:00 (the time is up)" in run.said


def test_the_end_of_input_ends_the_session_with_its_scorecard() -> None:
    run = mock_session([(30, "nonsense")])
    assert run.session.why == "the input ended"
    assert "'nonsense': not a command" in run.said
    assert "==== mock interview scorecard: detector, ended at 0:30 of 45:00" in run.said


def test_a_step_passes_when_its_scorecard_step_passes_though_a_point_waits() -> None:
    """validation waits for misses_for_budget's step; step 3 has passed, so it counts."""
    card = {
        "points": {"boundary": {"result": "passed"}, "validation": {"result": "partial"}},
        "steps": {"detector": [{"result": "passed", "points": ["validation"]}]},
    }
    assert mock.passing(card, "detector") == {"boundary", "validation"}


def test_the_command_runs_a_session_with_the_real_check(tmp_path: Path) -> None:
    """python -m kata mock, typed at: the retries' starter with exponential_backoff
    delegating to the reference passes step 1 at the first check (the check runs step 1's
    tests only, and stops at step 2, unwritten), which shows step 2 at once."""
    module = tmp_path / "my_retry.py"
    module.write_text(
        EXERCISES["retry"]
        .starter.read_text()
        .replace(
            '    raise NotImplementedError("exponential_backoff")\n',
            "    from variants.retry import exponential_backoff as reference\n\n"
            "    return reference(retry, base=base, cap=cap)\n",
            1,
        )
    )
    result = run_kata_command(
        tmp_path, "mock", "retry", "--file", module.name, stdin="next\ncheck\ndone\n"
    )
    said = " ".join(result.stdout.split())
    assert result.returncode == 0, result.stdout + result.stderr
    assert "check: passed for the first time: retry_backoff" in said
    assert "Step 2 of 7: Full, equal and decorrelated jitter" in said
    assert "==== rubric scorecard:" in said, "the check's own scorecard is shown"
    assert "==== mock interview scorecard: retry" in said
    assert "retry_backoff passed at 0:0" in said
    assert "Step 3, call (planned 13:00-23:00): not reached" in said
    assert " ".join(RETRY_LOAD.checklist[0].split()) in said, "the spoken step's model answers"
    assert not (tmp_path / ".kata.json").exists(), "the candidate's own state is left alone"
