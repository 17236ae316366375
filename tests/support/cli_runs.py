"""Running the command lines, as a test of what a user would see.

`run` calls ``main(argv)`` of ``python -m solution`` or ``python -m
variants`` with standard input, output and error replaced, and a time
limit: whatever the input, the run must end within it, with exit status 0
or 2 and no exception escaping (an escaping exception is a traceback to the
user).  `python_m` runs ``python -m <package> ...`` as a real process, from
the project's folder, as a user types it.
"""

from __future__ import annotations

import contextlib
import io
import signal
import subprocess
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from kata.exercises import ROOT
from kata.outcomes import time_limit

SECONDS = 10.0  # no input may keep a command busy longer


def ctrl_c_as_at_a_terminal() -> None:
    """For `preexec_fn`: the child takes SIGINT as Ctrl-C at a terminal, even where the
    tests themselves run with it ignored (a background job, nohup), which it would inherit."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


@dataclass(frozen=True)
class Run:
    status: int
    stdout: str
    stderr: str


def run(
    main: Callable[[Sequence[str] | None], int],
    argv: Sequence[str],
    *,
    stdin: bytes = b"",
    seconds: float = SECONDS,
) -> Run:
    """``main(argv)``'s exit status and output; argparse's SystemExit is a status too."""
    out, err = io.StringIO(), io.StringIO()
    saved = sys.stdin
    sys.stdin = io.TextIOWrapper(io.BytesIO(stdin), encoding="utf-8")
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err), time_limit(seconds):
            try:
                status = main(list(argv))
            except SystemExit as exit:  # argparse: usage errors exit 2, --help exits 0
                status = exit.code if isinstance(exit.code, int) else 2
    finally:
        sys.stdin = saved
    return Run(status, out.getvalue(), err.getvalue())


def python_m(package: str, *argv: str, seconds: float = 120) -> subprocess.CompletedProcess[str]:
    """``python -m package *argv`` in a process of its own: its status and its output."""
    return subprocess.run(
        [sys.executable, "-m", package, *argv],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
        timeout=seconds,
    )
