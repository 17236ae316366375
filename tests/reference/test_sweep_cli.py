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


@pytest.mark.parametrize(
    ("log", "flags", "message"),
    [
        (
            "time,gpu,job,event\n0,0,a,start\n5,0,a,stop\n7,0,a,stop\n",
            [],
            "log.csv:4: stop without a start",
        ),
        ("time,gpu,job,event\n9,0,a,start\n3,0,a,stop\n", [], "log.csv:3: stop before its start"),
        (
            "time,gpu,job,event\n0,0,a,start\n2,0,a,start\n",
            [],
            "log.csv:3: start of a job already running",
        ),
        ("time,gpu,job,event\n-1,0,a,start\n", [], "log.csv:2: negative time or GPU"),
        ("time,gpu,job,event\n0,0,a,pause\n", [], "log.csv:2: unknown kind 'pause'"),
        ("time,gpu,job,event\n0,7,a,start\n", [], "log.csv:2: GPU 7 is outside [0, 4)"),
        ("time,gpu,job,event\n1.5,0,a,start\n", [], "log.csv:2: time '1.5' is not an integer"),
        ("time,gpu,job,event\n0,0,a\n", [], "log.csv:2: expected 4 fields"),
        ("time,gpu,job\n0,0,a\n", [], "log.csv:1: expected the header time,gpu,job,event"),
        ("", [], "log.csv: empty file"),
        ("time,gpu,job,event\n", [], "log.csv: no events"),
        (
            "time,gpu,job,event\n0,0,a,start\n9,0,a,stop\n",
            ["--until", "5"],
            "log.csv:3: event after the end",
        ),
    ],
)
def test_bad_input_exits_2_naming_the_file_and_line(
    tmp_path: Path, log: str, flags: list[str], message: str
) -> None:
    path = tmp_path / "log.csv"
    path.write_text(log)
    result = run(path, "--gpus", "4", *flags)
    assert result.returncode == BAD_INPUT
    assert message in result.stderr
    assert "Traceback" not in result.stderr
    assert result.stdout == ""


def test_a_missing_log_and_a_bad_flag_exit_2(tmp_path: Path) -> None:
    missing = run(tmp_path / "nowhere.csv", "--gpus", "4")
    assert (missing.returncode, "cannot read" in missing.stderr) == (BAD_INPUT, True)
    flag = run(EXAMPLE, "--gpus", "four")
    assert (flag.returncode, "usage:" in flag.stderr) == (BAD_INPUT, True)
