"""``python -m solution`` end to end, in a subprocess, as a user runs it."""

from __future__ import annotations

import contextlib
import io
import itertools
import json
import resource
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from solution import cli as solution_cli
from solution.detector import Heartbeat, detect

pytestmark = pytest.mark.reference

ROOT = Path(__file__).resolve().parents[2]
BAD_INPUT = 2


def run(*args: str | Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "solution", *map(str, args)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def write_log(tmp_path: Path, text: str, name: str = "beats.csv") -> Path:
    path = tmp_path / name
    path.write_text(text)
    return path


LOG = "rank,sent_at,received_at\n0,100,100\n1,105,102\n2,90,103\n0,200,110\n1,300,111\n"


def test_demo_reports_the_dead_rank_first_and_the_traps_beside_it() -> None:
    """The demo's story: rank 11 first, >= flags rank 26, trusting sent_at flags rank 5."""
    result = run("demo")
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert any(line.startswith("Stopped first   rank 11 ") for line in lines)
    assert any("using >=: false alarm on rank 26" in line for line in lines)
    assert any("trusting sent_at: rank 5 stopped first" in line for line in lines)


def test_demo_is_deterministic_and_fits_one_screen() -> None:
    """Same output every run (seeded); under 40 lines of at most 100 columns."""
    first, second = run("demo").stdout, run("demo").stdout
    assert first == second
    assert len(first.splitlines()) <= 40
    assert max(map(len, first.splitlines())) <= 100


def test_the_demo_timeline_is_followed_by_a_legend_of_every_character_it_draws() -> None:
    """A reader of the timeline is told what `|` and `.` mean, on the line right under it."""
    lines = run("demo").stdout.splitlines()
    heading = next(n for n, line in enumerate(lines) if line.startswith("Received, "))
    rows = list(itertools.takewhile(lambda line: line.startswith("  rank "), lines[heading + 1 :]))
    drawn = {character for row in rows for character in row.split()[2]}
    legend = lines[heading + 1 + len(rows)]
    assert drawn == {"|", "."}
    assert legend.startswith("  Legend: ")
    assert "| a heartbeat received in that column's 0.25 s" in legend
    assert ". none received" in legend


def test_the_demo_log_replayed_by_detect_tells_the_same_story(tmp_path: Path) -> None:
    """demo --log writes what detect reads: the same first rank, the same followers."""
    log = tmp_path / "demo.csv"
    shown = run("demo", "--log", log)
    assert shown.returncode == 0, shown.stderr
    replay = shown.stdout.splitlines()[-1].split()[5:]  # the flags of the command it prints
    report = run("detect", log, *replay, "--json")
    assert report.returncode == 0, report.stderr
    stopped = [s["rank"] for s in json.loads(report.stdout)["stopped"]]
    assert stopped == [11, 8, 10, 13, 15, 9, 14, 12]


def test_a_demo_log_that_cannot_be_written_exits_2_before_any_report(tmp_path: Path) -> None:
    result = run("demo", "--log", tmp_path / "no" / "such" / "dir.csv")
    assert (result.returncode, result.stdout) == (BAD_INPUT, "")
    assert "cannot write" in result.stderr


def test_detect_prints_the_silent_ranks_first_to_stop_first(tmp_path: Path) -> None:
    result = run("detect", write_log(tmp_path, LOG), "--timeout", "5", "--now", "120")
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines() == [
        "3 of 3 ranks silent for more than 5 as of 120:",
        "rank  last heard  silence",
        "   2         103       17  stopped first",
        "   0         110       10",
        "   1         111        9",
    ]


def test_detect_json_round_trips_the_report(tmp_path: Path) -> None:
    result = run("detect", write_log(tmp_path, LOG), "--timeout", "9", "--now", "120", "--json")
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout) == {
        "world_size": 3,
        "start": 100,
        "now": 120,
        "timeout": 9,
        "unit": "ticks",
        "never_heard": 0,
        "stopped": [
            {"rank": 2, "last_heard": 103, "silence": 17},
            {"rank": 0, "last_heard": 110, "silence": 10},
        ],
    }


def test_detect_defaults_to_the_end_of_the_log_and_counts_unheard_ranks(tmp_path: Path) -> None:
    """now defaults to the latest received_at, start to the earliest; --world-size adds rank 3."""
    result = run(
        "detect", write_log(tmp_path, LOG), "--timeout", "2", "--world-size", "4", "--json"
    )
    report = json.loads(result.stdout)
    assert (report["now"], report["start"]) == (111, 100)
    assert [s["rank"] for s in report["stopped"]] == [3, 2]


def test_detect_in_decimal_seconds_keeps_the_nanosecond_boundary(tmp_path: Path) -> None:
    """Seconds parse exactly: 5.000000001 s of silence is past a 5 s timeout."""
    log = "rank,sent_at,received_at\n0,9000000.5,9000000.000000000\n"
    path = write_log(tmp_path, log)
    at = [
        run("detect", path, "--seconds", "--timeout", "5", "--now", now)
        for now in ("9000005", "9000005.000000001")
    ]
    assert [r.returncode for r in at] == [0, 0], [r.stderr for r in at]
    assert at[0].stdout.startswith("0 of 1 ranks")
    assert at[1].stdout.splitlines()[-1].split() == [
        "0",
        "9000000",
        "5.000000001",
        "stopped",
        "first",
    ]


def test_bad_input_exits_2_with_one_line_and_no_report(tmp_path: Path) -> None:
    """In a real process: exit status 2, one line naming file and line, nothing on stdout.

    Every other kind of bad input is in the table of tests/reference/test_cli_inputs.py.
    """
    result = run(
        "detect", write_log(tmp_path, "rank,sent_at,received_at\n0,1,1\n0,2\n"), "--timeout", "5"
    )
    assert (result.returncode, result.stdout) == (BAD_INPUT, "")
    assert result.stderr.endswith(
        "beats.csv:3: expected 3 fields (rank,sent_at,received_at), got 2\n"
    )
    assert "Traceback" not in result.stderr


def test_a_log_on_standard_input(tmp_path: Path) -> None:
    """``-`` reads the log from a pipe, as other Unix tools do."""
    result = subprocess.run(
        [sys.executable, "-m", "solution", "detect", "-", "--timeout", "5", "--now", "120"],
        cwd=ROOT,
        input=LOG,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines()[0] == "3 of 3 ranks silent for more than 5 as of 120:"


def test_a_missing_log_exits_2(tmp_path: Path) -> None:
    result = run("detect", tmp_path / "nowhere.csv", "--timeout", "5")
    assert (result.returncode, result.stdout) == (BAD_INPUT, "")
    assert "nowhere.csv: cannot read" in result.stderr


@pytest.mark.parametrize(
    "args",
    [
        ["detect"],
        ["detect", "x.csv", "--timeout", "5", "--bogus"],
        ["threshold", "--interval", "1000"],
        [
            "threshold",
            "--interval",
            "1s",
            "--miss-probability",
            "0.01",
            "--ranks",
            "8",
            "--horizon",
            "9",
        ],
        ["frobnicate"],
    ],
)
def test_bad_flags_exit_2_with_one_line_pointing_to_help(args: list[str]) -> None:
    """One line naming the flag and the way to --help, not argparse's usage block first."""
    result = run(*args)
    assert result.returncode == BAD_INPUT
    assert len(result.stderr.splitlines()) == 1, result.stderr
    assert result.stderr.endswith(" --help)\n"), result.stderr


WEEK_MS = 7 * 24 * 3_600 * 1_000


def test_threshold_shows_its_arithmetic() -> None:
    """1,024 ranks, 1 s heartbeats, 1% late or lost, at most 1 false alarm a week: k = 5."""
    result = run(
        "threshold",
        "--interval",
        "1000",
        "--miss-probability",
        "0.01",
        "--ranks",
        "1024",
        "--horizon",
        str(WEEK_MS),
        "--budget",
        "1",
        "--delay",
        "200",
    )
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "= 619315200" in out
    assert "k = 5, the smallest k >= 1" in out
    assert "k = 4: n * p**4 = 6.193 > 1" in out
    assert "k = 5: n * p**5 = 0.06193 <= 1" in out
    assert "= 5200: report a rank silent for more than this" in out
    assert "4200 to 5200 after a death" in out


@given(
    st.dictionaries(st.integers(0, 7), st.lists(st.integers(0, 12), min_size=1, max_size=3)),
    st.integers(0, 6),
    st.integers(0, 4),
)
@settings(max_examples=40)
def test_detect_reports_what_detect_answers_never_heard_ranks_and_ties_included(
    beats: dict[int, list[int]], timeout: int, extra: int
) -> None:
    """The command streams its report (the never-heard ranks are never made one object each):
    it must still be detect's answer, in detect's order, ties at `start` included."""
    world_size = max(beats, default=-1) + 1 + extra
    log = "rank,sent_at,received_at\n" + "".join(
        f"{rank},0,{t}\n" for rank, times in beats.items() for t in times
    )
    flags = ["--timeout", str(timeout), "--world-size", str(world_size), "--json"]
    flags += ["--start", "0", "--now", "12"]
    out, err = io.StringIO(), io.StringIO()
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "beats.csv"
        path.write_text(log)
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            status = solution_cli.main(["detect", str(path), *flags])
    assert status == 0, err.getvalue()
    heartbeats = [Heartbeat(r, t, t) for r, times in beats.items() for t in times]
    expected = detect(heartbeats, world_size=world_size, start=0, now=12, timeout=timeout)
    report = json.loads(out.getvalue())
    assert report["stopped"] == [s._asdict() for s in expected]
    assert report["never_heard"] == (world_size - len(beats) if timeout < 12 else 0)


def test_a_world_of_four_million_ranks_and_two_heartbeats_fits_in_little_memory(
    tmp_path: Path,
) -> None:
    """4,194,302 ranks never heard, listed one by one as detect would, by a process held to
    300 MB of address space (an object a rank, made before printing, needs gigabytes).
    Rank 0, heard at the start, is as silent as they are: it comes first, by rank."""
    path = write_log(tmp_path, "rank,sent_at,received_at\n0,1,10\n1,2,12\n")
    limit = 300 * 2**20
    command = ["detect", str(path), "--timeout", "1", "--world-size", "4194304"]
    done = subprocess.run(
        [sys.executable, "-m", "solution", *command],
        cwd=ROOT,
        capture_output=True,
        timeout=120,
        check=False,
        preexec_fn=lambda: resource.setrlimit(resource.RLIMIT_AS, (limit, limit)),
    )
    assert done.returncode == 0, done.stderr[-2000:]
    lines = done.stdout.decode().splitlines()
    heading = "4194303 of 4194304 ranks silent for more than 1 as of 12 (4,194,302 never heard):"
    assert (lines[0], len(lines)) == (heading, 4_194_305)
    assert [line.split() for line in (lines[2], lines[3], lines[-1])] == [
        ["0", "10", "2", "stopped", "first"],
        ["2", "never", "2"],
        ["4194303", "never", "2"],
    ]
