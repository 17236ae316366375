"""python -m kata, as a candidate uses it: real processes in a folder of their own.

Each test starts the command line in a fresh folder (the candidate's), so
what it keeps (`.kata.json`, `my_detector.py`) is its own.
"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

from kata.card import card
from kata.exercises import EXERCISES
from kata.plan import plan
from tests.support.subprocess_kata import run_kata_command, start_kata_command

pytestmark = pytest.mark.reference

USAGE = 2


def kata(folder: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return run_kata_command(folder, *args)


def said(result: subprocess.CompletedProcess[str]) -> str:
    return result.stdout + result.stderr


def wrong_boundary(folder: Path) -> Path:
    """The starter with detect written, using >= at the boundary."""
    module = folder / "my_detector.py"
    module.write_text(
        EXERCISES["detector"]
        .starter.read_text()
        .replace(
            '    raise NotImplementedError("detect")\n',
            "    latest = {}\n"
            "    for beat in heartbeats:\n"
            "        if beat.received_at <= now:\n"
            "            latest[beat.rank] = max(latest.get(beat.rank, start), beat.received_at)\n"
            "    found = [Stopped(r, latest.get(r), now - latest.get(r, start))\n"
            "             for r in range(world_size) if now - latest.get(r, start) >= timeout]\n"
            "    return sorted(found, key=lambda s: (-s.silence, s.rank))\n",
            1,
        )
    )
    return module


def test_start_copies_the_starter_and_shows_the_first_step(tmp_path: Path) -> None:
    result = kata(tmp_path, "start", "detector")
    assert result.returncode == 0, said(result)
    assert (tmp_path / "my_detector.py").read_text() == EXERCISES["detector"].starter.read_text()
    first = plan("detector").steps[0]
    assert f"Step 1 of {len(plan('detector').steps)}: {first.title}" in result.stdout
    assert "5. The boundary" in result.stdout, "the step's rules, titled from the contract"
    assert json.loads((tmp_path / ".kata.json").read_text())["current"] == "detector"


def test_start_never_overwrites_a_candidates_file(tmp_path: Path) -> None:
    (tmp_path / "my_detector.py").write_text("# two hours of work\n")
    result = kata(tmp_path, "start", "detector")
    assert result.returncode == USAGE, said(result)
    assert "my_detector.py already exists" in result.stderr
    assert (tmp_path / "my_detector.py").read_text() == "# two hours of work\n"


def test_an_untouched_starter_is_checked_as_not_attempted(tmp_path: Path) -> None:
    kata(tmp_path, "start", "detector")
    result = kata(tmp_path, "check")
    assert result.returncode == 0, said(result)
    assert "NOT ATTEMPTED 1. compare" in result.stdout
    assert "Next: step 1, compare" in result.stdout
    assert "FAILED" not in result.stdout


def test_a_check_stops_after_the_first_failing_step_and_names_its_mistake(
    tmp_path: Path,
) -> None:
    kata(tmp_path, "start", "detector")
    wrong_boundary(tmp_path)
    result = kata(tmp_path, "check")
    assert result.returncode == 1, said(result)
    assert "This is mistake detector/inclusive_boundary" in result.stdout
    assert "FAILED        1. compare" in result.stdout
    assert "NOT RUN       2. replay" in result.stdout
    assert "test_replay.py" not in result.stdout, "a later step's tests are not run"
    state = json.loads((tmp_path / ".kata.json").read_text())
    assert state["exercises"]["detector"]["step"] == 1


def test_a_step_passed_as_far_as_it_goes_sends_the_candidate_to_the_next_unwritten_one(
    tmp_path: Path,
) -> None:
    """detect right, misses_for_budget and the monitor still stubs: the refusals of
    those two wait for their own steps, so step 3 has passed, and the check stops at
    step 5, unwritten, never judging step 6."""
    kata(tmp_path, "start", "detector")
    module = tmp_path / "my_detector.py"
    module.write_text(
        module.read_text().replace(
            '    raise NotImplementedError("detect")\n',
            "    from solution import detect as reference\n"
            "    return reference(heartbeats, world_size=world_size, start=start, now=now,\n"
            "                     timeout=timeout)\n",
            1,
        )
    )
    result = kata(tmp_path, "check")
    assert result.returncode == 0, said(result)
    assert "PASSED        3. refuse" in result.stdout
    assert "of its tests wait for later steps" in result.stdout
    assert "NOT ATTEMPTED 5. threshold" in result.stdout
    assert "NOT RUN       6. monitor" in result.stdout
    assert "Next: step 5, threshold" in result.stdout
    assert "FAILED" not in result.stdout


def test_hints_climb_their_ladder_and_are_on_the_scorecard(tmp_path: Path) -> None:
    kata(tmp_path, "start", "detector")
    hints = plan("detector").steps[0].hints
    for rung, hint in enumerate(hints, 1):
        result = kata(tmp_path, "hint")
        assert result.returncode == 0, said(result)
        assert f"Hint {rung} of 3 for step 1, compare" in result.stdout
        assert " ".join(hint.split())[:60] in " ".join(result.stdout.split())
    assert "no more hints" in kata(tmp_path, "hint").stdout
    card = tmp_path / "card.json"
    kata(tmp_path, "check", "--json", str(card))
    step = json.loads(card.read_text())["steps"]["detector"][0]
    assert (step["hint"], step["capped_at"]) == (3, "weak")


def test_a_step_is_shown_by_number_or_name_with_its_rules(tmp_path: Path) -> None:
    by_number = kata(tmp_path, "step", "detector", "5")
    by_name = kata(tmp_path, "step", "detector", "threshold")
    assert by_number.returncode == by_name.returncode == 0, said(by_number)
    assert by_number.stdout == by_name.stdout
    assert "9. The threshold" in by_number.stdout
    assert "10. Refused" in by_number.stdout


def test_the_spoken_step_keeps_its_checklist_until_asked(tmp_path: Path) -> None:
    hidden = kata(tmp_path, "interview", "detector")
    shown = kata(tmp_path, "interview", "detector", "--reveal")
    item = plan("detector").steps[3].checklist[0]
    assert hidden.returncode == shown.returncode == 0, said(hidden)
    assert item[:40] not in hidden.stdout
    assert item[:40] in " ".join(shown.stdout.split())
    total = sum(s.minutes for s in plan("detector").steps) + plan("detector").clarify_minutes
    assert f"A session of {total} minutes" in shown.stdout
    ask, _ = plan("detector").followups[3]
    assert ask not in hidden.stdout, "the follow-ups come with the checklist"
    assert ask[:40] in shown.stdout


def test_the_card_in_a_terminal_is_the_rubrics_card(tmp_path: Path) -> None:
    """One source: the words of RUBRIC.md's card, without its Markdown marks."""
    result = kata(tmp_path, "card", "sweep")
    assert result.returncode == 0, said(result)
    written = card(plan("sweep")).replace("**", "").removeprefix("### ")
    assert " ".join(written.split()) == " ".join(result.stdout.split())
    assert result.stdout.startswith("Interview card: sweep\n")


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("mock", "detector", "--minutes", "0"), "a session lasts a minute at least"),
        (("mock", "detector", "--file", "nope.py"), "nope.py: no such file"),
        (("card", "nope"), "invalid choice"),
        (("step",), "which exercise?"),
        (("check",), "which module?"),
        (("step", "detector", "9"), "detector has no step '9'"),
        (("hint", "detector", "nope"), "detector has no step 'nope'"),
        (("check", "no_such_file.py"), "no_such_file.py"),
        (("start", "nope"), "invalid choice"),
        (("start", "det"), "invalid choice"),
    ],
)
def test_a_bad_command_exits_2_with_one_line_saying_why(
    tmp_path: Path, args: tuple[str, ...], message: str
) -> None:
    result = kata(tmp_path, *args)
    assert result.returncode == USAGE, said(result)
    assert message in result.stderr
    assert "Traceback" not in said(result)


def test_a_damaged_state_file_is_named_not_a_traceback(tmp_path: Path) -> None:
    (tmp_path / ".kata.json").write_text("{not json")
    result = kata(tmp_path, "hint", "detector")
    assert result.returncode == USAGE
    assert ".kata.json: cannot be read" in result.stderr
    assert "Traceback" not in said(result)


@pytest.mark.parametrize("args", [("check",), ("card", "detector")], ids=" ".join)
def test_a_reader_gone_ends_the_command_quietly(tmp_path: Path, args: tuple[str, ...]) -> None:
    """``python -m kata check | true``: the pipe's reader gone before the first line, the
    command ends as a tool killed by SIGPIPE does (status 141), nothing on standard error."""
    kata(tmp_path, "start", "detector")
    wrong_boundary(tmp_path)
    read, write = os.pipe()
    os.close(read)
    try:
        process = start_kata_command(tmp_path, *args, stdout=write)
    finally:
        os.close(write)
    _, err = process.communicate(timeout=300)
    assert (process.returncode, err) == (141, "")
