"""``python -m variants utilization`` end to end, in a subprocess."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.reference

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "variants" / "sweep" / "example.csv"
BAD_INPUT = 2


def run(*args: str | Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "variants", "utilization", *map(str, args)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def test_the_example_log_reports_idle_windows_peak_and_hourly_bars() -> None:
    result = run(EXAMPLE, "--gpus", "4", "--until", "28800")
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[1] == "Peak: 4 of 4 GPUs busy over [0, 10800)"
    assert lines[2] == "Idle (no GPU busy): [25200, 27000)"
    assert lines[3] == "Jobs that overlapped: finetune & sweep-lr"
    assert lines[-1] == "  [  25200,   28800)    12.5%  #####"


def test_json_carries_exact_fractions() -> None:
    result = run(EXAMPLE, "--gpus", "4", "--until", "28800", "--bucket", "7200", "--json")
    report = json.loads(result.stdout)
    assert [row["busy"] for row in report["utilization"]] == ["1", "11/16", "11/16", "5/16"]
    assert report["peak"] == {"busy": 4, "window": [0, 10800]}


def test_underused_windows_on_request() -> None:
    result = run(EXAMPLE, "--gpus", "4", "--until", "28800", "--below", "2")
    assert "Fewer than 2 GPUs busy: [10800, 12600), [25200, 28800)" in result.stdout


def test_a_missing_log_and_a_bad_flag_exit_2(tmp_path: Path) -> None:
    missing = run(tmp_path / "nowhere.csv", "--gpus", "4")
    assert (missing.returncode, "cannot read" in missing.stderr) == (BAD_INPUT, True)
    flag = run(EXAMPLE, "--gpus", "four")
    assert (flag.returncode, "'four' is not an integer" in flag.stderr) == (BAD_INPUT, True)
