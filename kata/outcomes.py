"""Asking an implementation a question, and what can come back.

A `Question` is one call (or one scripted session) of a contract, written
out as the candidate would type it, with a function that asks it of any
module and returns the answer in a normal form (plain tuples), so answers of
modules with different types compare equal when their fields do.  The
function is data: a module-level function of the harness, or a
`functools.partial` of one, so that it can be sent to the process where the
judged module runs (`kata.process.judge`); only the plain answer comes back.

The `Outcome` of asking is what came back (`Returned`), what was raised
(`Raised`, compared by kind, never by message wording), an answer of the
wrong shape (`Malformed`), or, for trusted code asked here, nothing within
the time limit (`TooSlow`).  Outcomes compare equal when a candidate could
not tell them apart, which is what lets a failure be matched against the
gallery's known mistakes.  When the judged module gives no answer at all (it
hangs, exits, or has used up its time), asking raises `Unanswered`, which
fails the test at once.
"""

from __future__ import annotations

import linecache
import signal
import time
import traceback
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from types import FrameType, TracebackType
from typing import TYPE_CHECKING, Any

from kata.impl import Module, NotAttempted

if TYPE_CHECKING:
    from kata.impl import Implementation

HARNESS = Path(__file__).resolve().parent
_cpu = time.process_time  # bound now: the module under test may patch time later
SHOWN = 2_000  # characters of one value shown in a message, at most


class ShapeError(Exception):
    """An answer that is not of the contract's shape (a generator for a list, ...)."""


@dataclass(frozen=True)
class Question:
    """One question of a contract: how it reads, and how to ask it of a module.

    `ask` must be picklable (a module-level function, or a partial of one, with
    plain arguments): it runs in the judged module's process.  `show` runs
    here, on the plain answer.
    """

    text: str
    ask: Callable[[Module], Any] = field(compare=False)
    show: Callable[[Any], str] = field(default=repr, compare=False)
    # Seconds, not milliseconds, to answer (a timed cost check): replayed only on the
    # gallery's mistakes of its own point, never as evidence elsewhere.
    costly: bool = field(default=False, compare=False)
    # Many questions asked in one message (`kata.checks.expect_each`): what it does not
    # settle is asked again one question at a time, so no limit it reaches is reported.
    bundle: bool = field(default=False, compare=False)

    def __str__(self) -> str:
        return self.text


@dataclass(frozen=True)
class Returned:
    value: Any
    shown: str = field(compare=False, default="")
    show: Callable[[Any], str] | None = field(compare=False, default=None, repr=False)

    def __str__(self) -> str:
        """The value as its question shows it, made when a message needs it."""
        if self.show is None:
            return self.shown
        try:
            return shorten(self.show(self.value))
        except Exception:  # a value the question's own display cannot render (10**100000)
            return brief(self.value)


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


class Unanswered(BaseException):
    """The judged module gave no answer: it hung, exited, or its time is used up.

    Not an Exception: no property test shrinks it (each try would cost the
    whole time limit again); the test fails at once with `text`.
    """

    def __init__(self, text: str, *, kind: str, question: Question, exercise: str) -> None:
        super().__init__(text)
        self.text, self.kind, self.question, self.exercise = text, kind, question, exercise


def ask(question: Question, impl: Implementation) -> Outcome:
    """Ask `impl` the question; whatever it answers is an Outcome.

    NotImplementedYet passes (a stub fails at once); a question needing a name
    the module lacks skips the test; no answer at all raises `Unanswered`.
    """
    return next(iter(impl.answers([question])))


def ask_all(questions: Iterable[Question], impl: Implementation) -> Iterator[Outcome]:
    """The outcomes of many questions, asked together (sent in batches), as they are read."""
    return impl.answers(questions)


# --- settling a question, in the process where the module runs ------------------------


def settle(ask: Callable[[Module], Any], module: Module) -> Outcome:
    """What asking gives, as data (`Returned` with nothing shown yet).

    NotImplementedYet and NotAttempted pass through, and so does any exception
    that is not an `Exception` (the judged process handles those itself).
    """
    try:
        value = ask(module)
    except ShapeError as error:
        problem, *shown = error.args
        return Malformed(shorten(str(problem)), shorten(str(shown[0])) if shown else "")
    except Exception as error:
        return raised(error, module.file)
    return Returned(value, "")


def settle_each(
    asks: tuple[Callable[[Module], Any], ...], seconds: float, module: Module
) -> tuple[Outcome, ...]:
    """What asking each of `asks` in turn gives, until they are all asked or `seconds` of
    this process's CPU time are spent (at least one is asked): a bundle's answer.

    Only the outcomes come back; whoever sent the asks compares them, as it would
    compare the answer to each question asked alone.
    """
    begun, outcomes = _cpu(), list[Outcome]()
    for ask in asks:
        if outcomes and _cpu() - begun > seconds:
            break
        outcomes.append(settle(ask, module))
    return tuple(outcomes)


def raised(error: BaseException, file: str | None) -> Raised:
    """`error` as an outcome: its kind, its message (shortened), the line that raised it."""
    return Raised(
        type(error).__name__,
        isinstance(error, ValueError),
        message_of(error),
        where_raised(error.__traceback__, file),
    )


def settle_here(question: Question, module: Module, seconds: float) -> Outcome:
    """`question` asked of trusted code in this process, within `seconds` of CPU time (the
    same on a busy machine: a known mistake's answer never depends on load), shown."""
    try:
        with time_limit(seconds, cpu=True):
            outcome = settle(question.ask, module)
    except NotAttempted as skipped:
        import pytest  # a trusted module lacking a name: its test is skipped

        pytest.skip(str(skipped))
    except TimeLimitError:
        return TooSlow(seconds)
    return with_shown(question, outcome)


def with_shown(question: Question, outcome: Outcome) -> Outcome:
    """A returned value shown as its question shows answers (here, never where it ran)."""
    if not isinstance(outcome, Returned):
        return outcome
    return Returned(outcome.value, show=question.show)


def message_of(error: BaseException) -> str:
    try:
        return shorten(str(error))
    except Exception as failure:  # an exception whose str() fails: say so, do not crash
        return f"<its message could not be shown: {type(failure).__name__}>"


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
        lines.append(f"  at {frame.filename}:{frame.lineno}, in {frame.name}: {shorten(source)}")
    return "\n".join(lines)


# --- values shown in messages, shortened --------------------------------------------------


def shorten(text: str, limit: int = SHOWN) -> str:
    """`text`, or its start and end with how much was left out."""
    if len(text) <= limit:
        return text
    half = limit // 2
    return f"{text[:half]}... ({len(text) - 2 * half:,} characters left out) ...{text[-half:]}"


def brief(value: Any, limit: int = SHOWN) -> str:
    """A repr of `value` that never fails and never runs long (huge ints shortened)."""
    return shorten(_brief(value, 4), limit)


def _brief(value: Any, depth: int) -> str:
    if isinstance(value, bool) or value is None:
        return repr(value)
    if isinstance(value, int):
        return short_int(value)
    if isinstance(value, str):
        return repr(shorten(value, 200))
    if depth == 0:
        return "..."
    if isinstance(value, tuple | list):
        items = [_brief(v, depth - 1) for v in value[:20]]
        items += [f"... ({len(value) - 20} more)"] if len(value) > 20 else []
        if isinstance(value, tuple) and hasattr(value, "_fields"):
            named = ", ".join(f"{f}={v}" for f, v in zip(value._fields, items, strict=False))
            return f"{type(value).__name__}({named})"
        inner = ", ".join(items)
        return f"[{inner}]" if isinstance(value, list) else f"({inner}{',' * (len(items) == 1)})"
    try:
        return shorten(repr(value), 200)
    except Exception:
        return f"<a {type(value).__name__} whose repr() fails>"


def short_int(number: int, digits: int = 40) -> str:
    """An int in full, or (past `digits` digits) its first and last digits and its length."""
    if number.bit_length() <= digits * 3:  # fewer than ~ digits * 0.9 decimal digits
        return str(number)
    sign, magnitude = ("-" if number < 0 else ""), abs(number)
    length = max(1, int(magnitude.bit_length() * 0.30102999566398120))  # log10(2)
    while 10**length <= magnitude:
        length += 1
    while length > 1 and 10 ** (length - 1) > magnitude:
        length -= 1
    head = str(magnitude // 10 ** (length - 6))
    tail = str(magnitude % 10**6).rjust(6, "0")
    return f"{sign}{head}...{tail} ({length:,} digits)"


# --- a time limit for code running in this process ----------------------------------------


class TimeLimitError(BaseException):
    """Raised into the running code when its time limit is up (past `except Exception`)."""


def _interrupt(signum: int, frame: FrameType | None) -> None:
    raise TimeLimitError


@contextmanager
def time_limit(seconds: float, *, cpu: bool = False) -> Iterator[None]:
    """Interrupt the block after `seconds` of wall-clock time (SIGALRM), or with `cpu` of
    this process's CPU time (SIGPROF), which a busy machine does not use up; the tests run
    in the main thread."""
    timer, signum = (
        (signal.ITIMER_PROF, signal.SIGPROF) if cpu else (signal.ITIMER_REAL, signal.SIGALRM)
    )
    previous = signal.signal(signum, _interrupt)
    remaining, _ = signal.setitimer(timer, seconds)
    try:
        yield
    finally:
        signal.setitimer(timer, 0)
        signal.signal(signum, previous)
        if remaining:  # an enclosing limit was running: give it back what is left of it
            signal.setitimer(timer, remaining)


def shown_list(rows: Any, show_row: Callable[[Any], str] = repr) -> str:
    """A list as the contract prints it: ``[Row(...), Row(...)]``."""
    return "[" + ", ".join(map(show_row, rows)) + "]"


def must_be_list(result: Any, what: str) -> list[Any]:
    """`result` if it is a list; else ShapeError naming what it is."""
    if isinstance(result, list):
        return result
    raise ShapeError(f"expected a list of {what}, got a {type(result).__name__}", brief(result))
