"""How the command lines end, as a Unix tool's do, whatever the pipe, the disk or the signal.

`run(main)` runs a command's ``main(argv)`` and turns every way it can end
into an exit status and at most one line on standard error:

* a reader that stops early (``| head -1``) ends the command quietly, with
  the status a shell gives a tool killed by SIGPIPE, 141;
* output that cannot be written (a full disk, ``> /dev/full``) is one line
  and status 1, never a traceback;
* progress of a long run goes to standard error, on a terminal only
  (`Progress`);
* Ctrl-C, SIGTERM and SIGHUP are all an interrupt (`KeyboardInterrupt`), so
  a command that prints a summary or reaps its children does so on each
  (a SIGKILL cannot be caught: the live demo's workers end by themselves
  when their parent is gone); an interrupt no command handled is status
  128 + the signal's number, no traceback.

`Parser` is argparse's parser with one change: a bad flag is one line
naming it and pointing to ``--help``, not the whole usage first.
"""

from __future__ import annotations

import argparse
import math
import os
import re
import signal
import sys
import time
from collections.abc import Callable, Sequence
from types import FrameType
from typing import Any, NoReturn, TextIO

from solution.logfile import shown

SIGPIPE_STATUS = 128 + 13
_INTEGER = re.compile(r"-?[0-9]{1,100}")


class OutputError(Exception):
    """Standard output cannot be written: its reason, for the one line."""


class Interrupt(KeyboardInterrupt):
    """SIGTERM or SIGHUP, handled as Ctrl-C is; `signal` says which."""

    def __init__(self, number: int) -> None:
        super().__init__(signal.Signals(number).name)
        self.signal = number


class Parser(argparse.ArgumentParser):
    """The command lines' parser, and their subcommands' (argparse makes those of the same
    class).  A flag is never abbreviated: `--win 99` is refused, never taken for
    `--window-ms 99`, nor `--time 5` for the one flag it happens to begin today."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("allow_abbrev", False)
        super().__init__(*args, **kwargs)

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: error: {message} (see {self.prog} --help)\n")


def integer(text: str) -> int:
    """A flag's integer: ASCII digits with an optional minus, as a log's numbers are (argparse's
    `int` also takes ``+5``, ``1_000``, `` 5`` and other scripts' digits); at most 100 digits."""
    if _INTEGER.fullmatch(text) is None:
        raise argparse.ArgumentTypeError(
            f"{shown(text)} is not an integer (ASCII digits, maybe a minus, at most 100)"
        )
    return int(text)


def bounded(low: int, high: int | None = None) -> Callable[[str], int]:
    """A flag's integer from `low` to `high` (no limit: None), both included."""

    def parse(text: str) -> int:
        value = integer(text)
        if value < low or (high is not None and value > high):
            limits = f"at least {low:,}" if high is None else f"between {low:,} and {high:,}"
            raise argparse.ArgumentTypeError(f"must be {limits}, got {shown(text)}")
        return value

    parse.__name__ = "integer"  # argparse names the type in its message
    return parse


def scale(text: str) -> float:
    """A flag's scale factor: a finite decimal number >= 0 (no nan, no inf, no minus)."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{shown(text)} is not a number") from None
    if not math.isfinite(value) or value < 0:
        raise argparse.ArgumentTypeError(f"must be a finite number >= 0, got {shown(text)}")
    return value


def run(
    main: Callable[[Sequence[str] | None], int], prog: str, argv: Sequence[str] | None = None
) -> int:
    """`main(argv)`'s exit status, however it ends; `prog` names the command in messages."""
    for each in (signal.SIGTERM, signal.SIGHUP):
        signal.signal(each, _interrupt)
    stdout = sys.stdout
    if stdout is not None:
        sys.stdout = _Guarded(stdout)
    try:
        status = main(argv)
        if sys.stdout is not None:
            sys.stdout.flush()
        return status
    except BrokenPipeError:
        _silence(stdout)
        return SIGPIPE_STATUS
    except OutputError as error:
        _silence(stdout)
        print(f"{prog}: error: cannot write the output: {error}", file=sys.stderr)
        return 1
    except KeyboardInterrupt as interrupt:
        caught = interrupt.signal if isinstance(interrupt, Interrupt) else int(signal.SIGINT)
        return 128 + caught
    finally:
        sys.stdout = stdout


class _Guarded:
    """Standard output whose write errors, other than a closed pipe, are OutputError."""

    def __init__(self, stream: TextIO) -> None:
        self._stream = stream

    def write(self, text: str) -> int:
        try:
            return self._stream.write(text)
        except BrokenPipeError:
            raise
        except OSError as error:
            raise OutputError(error.strerror or str(error)) from None

    def flush(self) -> None:
        try:
            self._stream.flush()
        except BrokenPipeError:
            raise
        except OSError as error:
            raise OutputError(error.strerror or str(error)) from None

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)


def _silence(stdout: TextIO | None) -> None:
    """Point standard output at /dev/null, so the interpreter's last flush is not an error."""
    if stdout is None:
        return
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError):  # no file descriptor (a test's StringIO): nothing to flush
        pass


class Progress:
    """A line of progress on a terminal, rewritten in place at most twice a second; nothing
    at all when the stream is not a terminal (a pipe, a file, CI): output stays clean."""

    def __init__(self, stream: TextIO | None, *, clock: Callable[[], float] = time.monotonic):
        self.stream = stream if stream is not None and stream.isatty() else None
        self._clock, self._shown, self._width = clock, float("-inf"), 0

    def __call__(self, text: str) -> None:
        now = self._clock()
        if self.stream is None or now - self._shown < 0.5:
            return
        self._shown, self._width = now, max(self._width, len(text))
        self.stream.write(f"\r{text:<{self._width}}")
        self.stream.flush()

    def done(self) -> None:
        """Erase the line."""
        if self.stream is not None and self._width:
            self.stream.write(f"\r{'':<{self._width}}\r")
            self.stream.flush()


def ending() -> None:
    """The command is ending: from now on Ctrl-C, SIGTERM and SIGHUP are ignored, so that a
    second one cannot cut a cleanup or a summary short (or leave a child unreaped)."""
    for each in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        signal.signal(each, signal.SIG_IGN)


def _interrupt(number: int, frame: FrameType | None) -> None:
    raise Interrupt(number)
