"""Running the command lines in-process, as a test of what a user would see.

`run` calls ``main(argv)`` of ``python -m solution`` or ``python -m
variants`` with standard input, output and error replaced, and a time
limit: whatever the input, the run must end within it, with exit status 0
or 2 and no exception escaping (an escaping exception is a traceback to the
user).
"""

from __future__ import annotations

import contextlib
import io
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from tests.support.outcomes import time_limit

SECONDS = 10.0  # no input may keep a command busy longer


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
