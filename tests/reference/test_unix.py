"""The command lines as Unix tools, run as real processes: pipes, full disks, signals.

Each case is what a user who pipes, interrupts and mistypes does: a reader
that stops early, output to a full disk, standard input closed, SIGTERM and
SIGHUP to a collector, SIGKILL and a second Ctrl-C to the live demo, the
metrics extra missing, a metrics port taken.  Each ends as docs/command-line.md says:
quietly or with one line, a summary where one is promised, and no process
left behind.
"""

from __future__ import annotations

import contextlib
import os
import pty
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from kata.exercises import ROOT
from tests.support.cli_runs import ctrl_c_as_at_a_terminal

pytestmark = pytest.mark.reference

PYTHON = [sys.executable, "-m"]


def _start(*argv: str, **options: object) -> subprocess.Popen[str]:
    return subprocess.Popen(  # type: ignore[call-overload, no-any-return]  # options pass through
        [*PYTHON, *argv],
        cwd=ROOT,
        stdout=options.pop("stdout", subprocess.PIPE),
        stderr=subprocess.PIPE,
        text=True,
        **options,
    )


def _line_with(process: subprocess.Popen[str], text: str, seconds: float = 30) -> list[str]:
    """Standard output's lines up to the first holding `text`."""
    assert process.stdout is not None
    seen, deadline = list[str](), time.monotonic() + seconds
    while time.monotonic() < deadline:
        line = process.stdout.readline()
        if not line:
            break
        seen.append(line)
        if text in line:
            return seen
    raise AssertionError(f"no line with {text!r} in {seen}")


def _workers_of(parent: int) -> list[int]:
    """The live demo's worker processes still running for `parent`."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                command = (entry / "cmdline").read_bytes().split(b"\0")
            except OSError:
                continue
            if b"solution.live.worker" in command and str(parent).encode() in command:
                found.append(int(entry.name))
    return found


def _gone(parent: int, seconds: float = 5) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if not _workers_of(parent):
            return True
        time.sleep(0.05)
    return False


def test_a_reader_that_stops_early_ends_the_command_quietly(tmp_path: Path) -> None:
    """`detect ... | head -1` on a long report: status 141, as a tool killed by SIGPIPE,
    and nothing on standard error."""
    log = tmp_path / "beats.csv"
    log.write_text("rank,sent_at,received_at\n0,1,1\n")
    command = ["solution", "detect", str(log), "--timeout", "0", "--world-size", "1000000"]
    command += ["--now", "5"]
    process = _start(*command)
    assert process.stdout is not None
    process.stdout.readline()
    process.stdout.close()
    _, err = process.communicate(timeout=60)
    assert (process.returncode, err) == (141, "")


def test_a_full_disk_is_one_line_and_status_1() -> None:
    with open("/dev/full", "w") as full:
        process = _start("solution", "demo", stdout=full)
        _, err = process.communicate(timeout=60)
    assert process.returncode == 1
    assert err == "python -m solution: error: cannot write the output: No space left on device\n"


@pytest.mark.parametrize(
    "argv",
    [
        ["solution", "detect", "-", "--timeout", "5"],
        ["variants", "utilization", "-", "--gpus", "4"],
    ],
)
def test_a_closed_standard_input_is_one_line(argv: list[str]) -> None:
    process = _start(*argv, stdin=subprocess.DEVNULL, preexec_fn=lambda: os.close(0))
    _, err = process.communicate(timeout=60)
    assert process.returncode == 2
    assert err.endswith("error: <stdin>: standard input is closed\n"), err
    assert len(err.splitlines()) == 1, err


@pytest.mark.parametrize("number", [signal.SIGTERM, signal.SIGHUP])
def test_a_collector_ended_by_a_signal_prints_its_summary(number: signal.Signals) -> None:
    process = _start(
        "solution", "collect", "--job", "j", "--world-size", "2", "--timeout", "0.2", "--port", "0"
    )
    _line_with(process, "listening on")
    process.send_signal(number)
    out, err = process.communicate(timeout=30)
    assert process.returncode == 0, err
    assert "datagrams read" in out, out
    assert "reports:" in out, out
    assert "Traceback" not in err, err


def test_a_busy_metrics_port_is_one_line() -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = str(taken.getsockname()[1])
        process = _start(
            "solution", "collect", "--job", "j", "--world-size", "2", "--timeout", "1",
            "--port", "0", "--metrics-port", port,
        )  # fmt: skip
        out, err = process.communicate(timeout=30)
    assert (process.returncode, out) == (2, "")
    assert err == (
        f"python -m solution: error: --metrics-port {port}: cannot listen: Address already in use\n"
    )


def test_metrics_without_the_extra_is_one_line_saying_how_to_install_it() -> None:
    code = (
        "import sys; sys.modules['prometheus_client'] = None; "  # as if it were not installed
        "from solution.cli import main; from solution.unix import run; "
        "sys.exit(run(main, 'python -m solution', ['collect', '--job', 'j', '--world-size', '2', "
        "'--timeout', '1', '--port', '0', '--metrics-port', '0']))"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60
    )
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr == (
        "python -m solution: error: --metrics-port: metrics need prometheus_client: "
        "pip install -e '.[metrics]'\n"
    )


def test_the_live_demo_killed_leaves_no_worker_behind() -> None:
    """SIGKILL cannot be caught: the workers end by themselves when their parent is gone."""
    process = _start("solution", "live", "--interval", "0.1")
    _line_with(process, "ranks heard")
    assert _workers_of(process.pid), "the workers are running"
    process.kill()
    process.communicate(timeout=30)
    assert _gone(process.pid), f"orphans: {_workers_of(process.pid)}"


def test_two_ctrl_c_end_the_live_demo_with_every_worker_reaped() -> None:
    """The second Ctrl-C comes during the cleanup; it waits until the cleanup is done."""
    process = _start("solution", "live", "--interval", "0.1", preexec_fn=ctrl_c_as_at_a_terminal)
    _line_with(process, "ranks heard")
    process.send_signal(signal.SIGINT)
    time.sleep(0.02)
    process.send_signal(signal.SIGINT)
    out, err = process.communicate(timeout=30)
    assert process.returncode == 130, (out, err)
    assert err.splitlines()[-1] == "interrupted: every worker ended and reaped", err
    assert "Traceback" not in err, err
    assert "reports:" in out, out
    assert _gone(process.pid), f"left running: {_workers_of(process.pid)}"


def _stderr_on_a_terminal(*argv: str) -> tuple[int, bytes]:
    """Run with standard error on a pseudo-terminal: its status, and what it wrote there."""
    master, slave = pty.openpty()
    done = subprocess.run(
        [*PYTHON, *argv], cwd=ROOT, stdout=subprocess.DEVNULL, stderr=slave, timeout=120
    )
    os.close(slave)
    written = b""
    with contextlib.suppress(OSError):  # EIO: the terminal's other end is closed
        while chunk := os.read(master, 65_536):
            written += chunk
    os.close(master)
    return done.returncode, written


def test_a_long_lab_run_shows_its_progress_on_a_terminal_and_erases_it() -> None:
    status, written = _stderr_on_a_terminal(
        "solution", "lab", "--ranks", "64", "--cause", "GC pauses"
    )
    assert status == 0
    assert b"\rlab: cause 1 of 1 (GC pauses), rank 1 of 64" in written, written
    assert written.endswith(b"\r"), "the line is erased at the end"


def test_no_progress_when_standard_error_is_not_a_terminal() -> None:
    done = subprocess.run(
        [*PYTHON, "solution", "lab", "--ranks", "16", "--cause", "GC pauses"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert (done.returncode, done.stderr) == (0, "")


def test_the_live_demo_read_by_head_ends_quietly_and_reaps_its_workers() -> None:
    """`live | head -3`: the demo's next line finds the pipe closed; it cleans up, then
    ends as a tool killed by SIGPIPE would, with nothing on standard error."""
    process = _start("solution", "live", "--interval", "0.1")
    lines = _line_with(process, "ranks heard")
    assert process.stdout is not None
    process.stdout.close()
    _, err = process.communicate(timeout=30)
    assert (process.returncode, err) == (141, ""), lines
    assert _gone(process.pid), f"left running: {_workers_of(process.pid)}"
