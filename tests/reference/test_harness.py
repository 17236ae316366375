"""The kata harness, from a candidate's side: loading, skipping, one clear message."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.support.subprocess_kata import run_kata

pytestmark = pytest.mark.reference

USAGE_ERROR = 4  # pytest's exit status for a usage error


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


def test_a_dotted_module_attempting_only_detect_skips_the_rest(tmp_path: Path) -> None:
    """solution.detector has detect only: the threshold and monitor points are not attempted."""
    card = tmp_path / "card.json"
    result = run_kata("--impl", "solution.detector", "--rubric", "--rubric-json", str(card))
    assert result.returncode == 0, result.stdout[-2000:]
    points = json.loads(card.read_text())["points"]
    assert points["threshold"]["result"] == "not attempted"
    assert points["monitor"]["result"] == "not attempted"
    assert points["boundary"]["result"] == "passed"
    assert "rubric scorecard: solution.detector" in result.stdout


def test_the_environment_variable_chooses_the_implementation(tmp_path: Path) -> None:
    card = tmp_path / "card.json"
    wrong = "gallery/detector/wrong_inclusive_boundary.py"
    run_kata("--rubric-json", str(card), env={"KATA_IMPL": wrong})
    document = json.loads(card.read_text())
    assert document["implementation"] == wrong
    assert document["points"]["boundary"]["result"] == "failed"
