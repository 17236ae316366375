"""The kata harness, from a candidate's side: loading, one exercise at a time, clear messages."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from kata.exercises import EXERCISES
from tests.support.subprocess_kata import run_kata

pytestmark = pytest.mark.reference

USAGE_ERROR = 4  # pytest's exit status for a usage error
TESTS_FAILED = 1


def test_a_missing_file_is_one_clear_message() -> None:
    result = run_kata("--impl", "no/such/detector.py")
    assert result.returncode == USAGE_ERROR
    assert "kata: no such file: no/such/detector.py" in result.stderr
    assert "Traceback" not in result.stderr + result.stdout


def test_a_module_that_fails_to_import_is_one_clear_message(tmp_path: Path) -> None:
    broken = tmp_path / "broken.py"
    broken.write_text("def detect(:\n")
    result = run_kata("--impl", str(broken))
    assert result.returncode == USAGE_ERROR
    assert f"kata: cannot import {broken}: SyntaxError" in result.stderr


def test_a_module_with_none_of_the_names_is_one_clear_message(tmp_path: Path) -> None:
    empty = tmp_path / "nothing.py"
    empty.write_text("def helper() -> None: ...\n")
    result = run_kata("--impl", str(empty))
    assert result.returncode == USAGE_ERROR
    assert "provides none of the names the kata tests: detect, misses_for_budget" in result.stderr


def test_a_scorecard_into_a_missing_folder_fails_before_the_run(tmp_path: Path) -> None:
    result = run_kata(
        "--impl", "starters/detector.py", "--rubric-json", str(tmp_path / "no/c.json")
    )
    assert result.returncode == USAGE_ERROR
    assert "does not exist" in result.stderr
    assert "passed" not in result.stdout
    assert "failed" not in result.stdout


def test_only_the_exercises_a_module_attempts_are_collected(tmp_path: Path) -> None:
    """solution.detector has detect only: the sweep is not collected, the monitor not attempted."""
    card = tmp_path / "card.json"
    result = run_kata("--impl", "solution.detector", "--rubric", "--rubric-json", str(card))
    assert result.returncode == 0, result.stdout[-2000:]
    document = json.loads(card.read_text())
    assert document["exercises"] == {
        name: "attempted" if name == "detector" else "not attempted" for name in EXERCISES
    }
    assert "tests/sweep" not in result.stdout
    points = document["points"]
    assert points["threshold"]["result"] == "not attempted"
    assert points["monitor"]["result"] == "not attempted"
    assert points["boundary"]["result"] == "passed"
    assert points["validation"]["result"] == "partial"  # detect's tests passed, the rest skipped
    not_attempted = "sweep, retry, batcher, diagnosis, credits"
    assert f"Not attempted (no test collected): {not_attempted}" in result.stdout


def test_the_scorecard_is_the_last_thing_printed(tmp_path: Path) -> None:
    result = run_kata("--impl", "gallery/detector/wrong_inclusive_boundary.py", "--rubric")
    assert result.returncode == TESTS_FAILED
    last = result.stdout.rstrip().splitlines()[-1]
    assert last.endswith("not attempted"), last
    assert "points passed" in last, last


def test_a_mistake_is_named_once_and_other_points_say_what_explains_them() -> None:
    result = run_kata("--impl", "gallery/detector/wrong_inclusive_boundary.py", "--rubric")
    card = result.stdout[result.stdout.index("rubric scorecard") :]
    assert card.count("mistake detector/inclusive_boundary:") == 1
    assert "explained by mistake detector/inclusive_boundary (see boundary)" in card


def test_the_environment_variable_chooses_the_implementation(tmp_path: Path) -> None:
    card = tmp_path / "card.json"
    wrong = "gallery/detector/wrong_inclusive_boundary.py"
    run_kata("--rubric-json", str(card), env={"KATA_IMPL": wrong})
    document = json.loads(card.read_text())
    assert document["implementation"] == wrong
    assert document["points"]["boundary"]["result"] == "failed"
    assert document["mistakes"][0]["id"] == "detector/inclusive_boundary"


def test_a_candidates_exception_shows_the_line_that_raised(tmp_path: Path) -> None:
    module = tmp_path / "raises.py"
    module.write_text(
        "def detect(heartbeats, *, world_size, start, now, timeout):\n"
        "    latest = {}\n"
        "    return sorted(latest)[0]  # IndexError on purpose\n"
    )
    result = run_kata("--impl", str(module), "-k", "test_the_longest_silent_rank_comes_first")
    assert result.returncode == TESTS_FAILED
    assert "raised IndexError" in result.stdout
    assert f"at {module}:3, in detect: return sorted(latest)[0]" in result.stdout
    assert "During handling of the above exception" not in result.stdout


def test_a_warning_from_outside_the_project_never_turns_a_failure_into_a_crash(
    tmp_path: Path,
) -> None:
    """A library's DeprecationWarning while a wrong answer fails: a failure, not exit 3."""
    (tmp_path / "oldlib.py").write_text(
        "import warnings\n"
        "def latest(times):\n"
        "    warnings.warn('latest() is deprecated', DeprecationWarning, stacklevel=1)\n"
        "    return max(times)\n"
    )
    module = tmp_path / "warns.py"
    module.write_text(
        "import oldlib\n"
        "from solution import Stopped\n"
        "def detect(heartbeats, *, world_size, start, now, timeout):\n"
        "    beats = list(heartbeats)\n"
        "    found = []\n"
        "    for rank in range(world_size):\n"
        "        times = [b.received_at for b in beats if b.rank == rank]\n"
        "        times = [t for t in times if t <= now]\n"
        "        last = oldlib.latest(times) if times else None\n"
        "        silence = now - (start if last is None else last)\n"
        "        if silence >= timeout:  # the mistake\n"
        "            found.append(Stopped(rank, last, silence))\n"
        "    return sorted(found, key=lambda s: (-s.silence, s.rank))\n"
    )
    # A property test that fails (hypothesis reports it) and an example test.
    chosen = "test_a_heartbeat_received_now_unreports_its_rank or exactly_timeout_late"
    result = run_kata("--impl", str(module), "-k", chosen, profile="kata")
    assert result.returncode == TESTS_FAILED, result.stdout[-3000:] + result.stderr[-3000:]
    assert "INTERNALERROR" not in result.stdout + result.stderr
    assert "This is mistake detector/inclusive_boundary" in result.stdout


def test_an_untouched_starter_is_not_attempted_at_once(tmp_path: Path) -> None:
    """NotImplementedError is not retried by hypothesis, and an unwritten function is
    not a wrong one: every point not attempted, nothing failed, no shrinking."""
    result = run_kata("--impl", "starters/detector.py", "--rubric", profile="kata")
    assert result.returncode == 0, result.stdout[-3000:]
    assert "not attempted: detect is not written yet" in result.stdout
    assert "0 of 11 points passed, 0 partial, 0 failed, 11 not attempted" in result.stdout
    assert "Falsifying example" not in result.stdout


def test_a_function_written_for_some_calls_only_fails_the_others(tmp_path: Path) -> None:
    """NotImplementedError from a function that answers other calls is a failure: the
    branch it guards is the candidate's to write."""
    module = tmp_path / "branchy.py"
    module.write_text(
        "from solution import Heartbeat, Stopped, detect as _detect\n"
        "def detect(heartbeats, *, world_size, start, now, timeout):\n"
        "    heartbeats = list(heartbeats)\n"
        "    if not heartbeats:\n"
        "        raise NotImplementedError('an empty log')\n"
        "    return _detect(heartbeats, world_size=world_size, start=start, now=now,\n"
        "                   timeout=timeout)\n"
    )
    result = run_kata("--impl", str(module), "--rubric", "-k", "test_never_heard", profile="kata")
    assert "detect raised NotImplementedError on this call, though it answers others" in (
        result.stdout
    ), result.stdout[-3000:]
    assert result.returncode == TESTS_FAILED
