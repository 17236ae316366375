"""Asking an implementation a question, and what can come back.

A `Question` is one call (or one scripted session) of a contract, written
out as the candidate would type it, with a function that asks it of any
implementation and returns the answer in a normal form (plain tuples), so
answers of modules with different types compare equal when their fields do.

The `Outcome` of asking is what came back (`Returned`), what was raised
(`Raised`, compared by kind, never by message wording), an answer of the
wrong shape (`Malformed`), or nothing within the time limit (`TooSlow`).
Outcomes compare equal when a candidate could not tell them apart, which is
what lets a failure be matched against the gallery's known mistakes.
"""

from __future__ import annotations

import linecache
import signal
import traceback
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from types import FrameType, TracebackType
from typing import Any

from tests.support.impl import Implementation, NotImplementedYet

HARNESS = Path(__file__).resolve().parent


class ShapeError(Exception):
    """An answer that is not of the contract's shape (a generator for a list, ...)."""


@dataclass(frozen=True)
class Question:
    """One question of a contract: how it reads, and how to ask it of an implementation."""

    text: str
    ask: Callable[[Implementation], Any] = field(compare=False)
    show: Callable[[Any], str] = field(default=repr, compare=False)

    def __str__(self) -> str:
        return self.text


@dataclass(frozen=True)
class Returned:
    value: Any
    shown: str = field(compare=False)

    def __str__(self) -> str:
        return self.shown


@dataclass(frozen=True)
class Raised:
    kind: str
    is_value_error: bool
    message: str = field(compare=False)
    where: str = field(compare=False, default="")

    def __str__(self) -> str:
        return f"raised {self.kind}: {self.message}" + (f"\n{self.where}" if self.where else "")


@dataclass(frozen=True)
class Malformed:
    problem: str
    shown: str = field(compare=False)

    def __str__(self) -> str:
        return f"{self.shown}\n  which is not the contract's answer: {self.problem}"


@dataclass(frozen=True)
class TooSlow:
    seconds: float = field(compare=False)

    def __str__(self) -> str:
        return f"no answer after {self.seconds:g} s"


Outcome = Returned | Raised | Malformed | TooSlow

CANDIDATE_SECONDS = 10.0  # a candidate's answer to one question
REPLAY_SECONDS = 5.0  # a known mistake's, when a failure is matched against the gallery


def ask(question: Question, impl: Implementation, *, seconds: float = CANDIDATE_SECONDS) -> Outcome:
    """Ask `impl` the question; whatever happens is an Outcome (NotImplementedYet passes)."""
    try:
        with time_limit(seconds):
            value = question.ask(impl)
    except NotImplementedYet:
        raise
    except TimeLimitError:
        return TooSlow(seconds)
    except ShapeError as error:
        problem, *shown = error.args
        return Malformed(str(problem), str(shown[0]) if shown else "")
    except Exception as error:
        return Raised(
            type(error).__name__,
            isinstance(error, ValueError),
            str(error),
            where_raised(error.__traceback__, impl.file),
        )
    return Returned(value, question.show(value))


def where_raised(trace: TracebackType | None, file: str | None) -> str:
    """The line of the candidate's code that raised, as ``  at file:line: source``.

    The deepest frame in the implementation's own file, else the deepest frame
    outside the harness (a library the implementation called).
    """
    frames = [f for f in traceback.extract_tb(trace) if Path(f.filename).parent != HARNESS]
    own = [f for f in frames if file is not None and Path(f.filename) == Path(file)]
    chosen = (own or frames)[-1:] if frames else []
    lines = []
    for frame in chosen:
        source = (linecache.getline(frame.filename, frame.lineno or 0) or "").strip()
        lines.append(f"  at {frame.filename}:{frame.lineno}, in {frame.name}: {source}")
    return "\n".join(lines)


class TimeLimitError(Exception):
    """Raised into the running code when its time limit is up."""


def _interrupt(signum: int, frame: FrameType | None) -> None:
    raise TimeLimitError


@contextmanager
def time_limit(seconds: float) -> Iterator[None]:
    """Interrupt the block after `seconds` (SIGALRM; the tests run in the main thread)."""
    previous = signal.signal(signal.SIGALRM, _interrupt)
    remaining, _ = signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
        if remaining:  # an enclosing limit was running: give it back what is left of it
            signal.setitimer(signal.ITIMER_REAL, remaining)


def shown_list(rows: Any, show_row: Callable[[Any], str] = repr) -> str:
    """A list as the contract prints it: ``[Row(...), Row(...)]``."""
    return "[" + ", ".join(map(show_row, rows)) + "]"


def must_be_list(result: Any, what: str) -> list[Any]:
    """`result` if it is a list; else ShapeError naming what it is."""
    if isinstance(result, list):
        return result
    raise ShapeError(f"expected a list of {what}, got a {type(result).__name__}", repr(result))
