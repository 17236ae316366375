"""The judge: the module under test runs in a process of its own; the verdict is made here.

A `Judge` starts the judged process (`kata.process.judged`), has it import
the module, and sends it questions; each comes back as a plain outcome (a
value made of builtins and the harness's own records, read by an unpickler
that refuses anything else), which the tests compare here.  Nothing the
module does reaches the comparison, the scorecard or the gallery's replay,
which runs in this process on trusted code.

Limits, each a result the scorecard reports, never a hang or a crash of the
run: a time limit per call (the call is stopped and the process restarted,
so one bad call costs one test), a budget per test and per run, a count of
hangs after which the run stops asking, a memory limit (`resource` limits of
the judged process), output kept in bounded buffers (its first and last few
KB, the rest counted), and an exit, a signal or ``sys.exit`` of the module
named with the call it happened in.  The judged process has its own session
(Ctrl-C reaches the judge alone, which stops the run) and its own scratch
folder as its working directory; the kernel ends it if the judge dies.

Where the judged module runs is a `Transport`: a child process here
(`_Child`), or, in a browser page, a web worker (`kata.process.browser`),
chosen by the platform.  The judge speaks the same messages to either.
"""

from __future__ import annotations

import contextlib
import itertools
import os
import pickle
import selectors
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, replace
from typing import Any, Protocol

from kata.exercises import ROOT, Exercise
from kata.impl import LoadError, NotImplementedYet
from kata.outcomes import (
    Malformed,
    Outcome,
    Question,
    Raised,
    Unanswered,
    shorten,
    with_shown,
)
from kata.process.judged import HEADER

CHUNK = 256  # questions sent in one message: fewer round trips, little waste on a failure
# The time limits count the judged process's CPU time, which a busy machine does not use
# up: the same module gets the same verdict beside other work.  A call that waits without
# computing (a sleep, input()) is stopped on the clock, at this many times its limit.
WAITING = 3
POLL = 0.05  # seconds between looks at the judged process's CPU time, while it computes
TICKS = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100
DRAIN_SECONDS = 1.0  # for the replies to a chunk's unwanted questions, before a restart instead
KEPT = 2_048  # bytes of output kept from the start and from the end


@dataclass(frozen=True)
class Limits:
    """What the judged module may spend; `per_call` sets the time limits."""

    per_call: float = 10.0  # seconds of the judged process's CPU time for one question
    hangs: int = 5  # calls stopped at the time limit, after which nothing more is asked
    memory: int = 2 * 2**30  # bytes of address space for the judged process

    @property
    def per_test(self) -> float:
        return 3 * self.per_call

    @property
    def per_run(self) -> float:
        return 30 * self.per_call


@dataclass(frozen=True)
class Event:
    """A limit the module reached, for the scorecard."""

    kind: str  # "time limit", "test time", "run time", "not asked", "exit", "void"
    test: str
    question: str
    detail: str


class Kept:
    """Output kept in bounded memory: the first and last `size` bytes, the rest counted."""

    def __init__(self, size: int = KEPT) -> None:
        self.size, self.total = size, 0
        self.head, self.tail = bytearray(), bytearray()

    def add(self, data: bytes) -> None:
        self.total += len(data)
        if not self.size:
            return
        room = self.size - len(self.head)
        self.head += data[:room]
        if len(data) > room:
            self.tail += data[room:]
            del self.tail[: max(0, len(self.tail) - self.size)]

    def text(self) -> str:
        """The kept output, with how much was left out between its start and its end."""
        head = self.head.decode(errors="replace")
        left_out = self.total - len(self.head) - len(self.tail)
        tail = self.tail.decode(errors="replace")
        if left_out:
            return f"{head}\n... ({left_out:,} bytes left out) ...\n{tail}"
        return head + tail


@dataclass(frozen=True)
class Loaded:
    provided: dict[str, frozenset[str]]  # exercise -> the names the module provides
    file: str | None


def _add(outputs: Sequence[Kept], data: bytes) -> None:
    for output in outputs:
        output.add(data)


class OutOfTimeError(Exception):
    """No reply within the time a transport was given."""


class ChildDiedError(Exception):
    """The judged module's process (or worker) ended; its exit status, if it has one."""

    def __init__(self, status: int | None) -> None:
        super().__init__(status)
        self.status = status


@dataclass(frozen=True)
class Place:
    """Where a judged module is started: its import paths, its working folder, its memory,
    and the module the judge will ask it to load (a path or a dotted name)."""

    paths: Sequence[str]
    workdir: str
    memory: int
    target: str


class Transport(Protocol):
    """The judged module's side, wherever it runs: length-prefixed pickles out, replies
    back, its output read apart.  One transport is one life of the judged module: `kill`
    ends it, and the judge starts another for the next question."""

    def send(self, message: bytes) -> None:
        """Send one request (ChildDiedError if the judged side is gone)."""
        ...

    def reply(self, seconds: float, *outputs: Kept, on_the_clock: bool = False) -> bytes:
        """The next reply, the module's output read into `outputs` meanwhile; OutOfTimeError
        after `seconds` (of CPU time where the transport can tell, else on the clock),
        ChildDiedError if the judged side ends first."""
        ...

    def cpu_seconds(self) -> float | None:
        """The judged side's CPU time so far, or None where it cannot be told."""
        ...

    def drain(self, *outputs: Kept) -> None:
        """Whatever the module wrote before its last reply, read into `outputs`."""
        ...

    def kill(self) -> None:
        """End the judged side now, whatever it is doing."""
        ...


def start_process(place: Place) -> Transport:
    """The judged module in a process of its own (`kata.process.judged`)."""
    return _Child(place.paths, place.workdir, place.memory)


def default_transport() -> Callable[[Place], Transport]:
    """A child process; in a browser page (Pyodide: no processes), a web worker."""
    if sys.platform == "emscripten":
        from kata.process import browser

        return browser.start_worker
    return start_process


class _Child:
    """The judged process and its three pipes: requests, replies, output."""

    def __init__(self, paths: Sequence[str], workdir: str, memory: int) -> None:
        requests_r, self.requests = os.pipe()
        self.replies, replies_w = os.pipe()
        self.output, output_w = os.pipe()
        boot = (
            f"import sys; sys.path[:] = {list(paths)!r} + [p for p in sys.path if p]; "
            "from kata.process.judged import main; main()"
        )
        environment = {**os.environ, "PYTHONHASHSEED": "0", "PYTHONUNBUFFERED": "1"}
        try:
            self.process = subprocess.Popen(
                [sys.executable, "-c", boot, str(requests_r), str(replies_w), str(memory)],
                stdin=subprocess.DEVNULL,
                stdout=output_w,
                stderr=output_w,
                pass_fds=(requests_r, replies_w),
                cwd=workdir,
                env=environment,
                start_new_session=True,  # Ctrl-C at the terminal reaches the judge alone
            )
        finally:
            for fd in (requests_r, replies_w, output_w):
                os.close(fd)
        for fd in (self.replies, self.output):
            os.set_blocking(fd, False)
        self.selector = selectors.DefaultSelector()
        self.selector.register(self.replies, selectors.EVENT_READ)
        self.selector.register(self.output, selectors.EVENT_READ)
        self.buffer = bytearray()
        self._cpu: float | None = None
        self._cpu_read_at = -POLL

    def send(self, message: bytes) -> None:
        data = memoryview(HEADER.pack(len(message)) + message)
        try:
            while data:
                data = data[os.write(self.requests, data) :]
        except BrokenPipeError:
            raise ChildDiedError(self.process.wait()) from None

    def reply(self, seconds: float, *outputs: Kept, on_the_clock: bool = False) -> bytes:
        """The next reply's pickle, reading the module's output into `outputs` meanwhile.

        Out of time when the process has used `seconds` of CPU time since the call began,
        or waited WAITING times as long on the clock (`on_the_clock`: `seconds` on it).
        """
        cpu_began = None if on_the_clock else self.cpu_seconds()
        began = time.monotonic()
        deadline = began + seconds * (1 if cpu_began is None else WAITING)
        while True:
            message = self._complete()
            if message is not None:
                return message
            now = time.monotonic()
            if now >= deadline:
                raise OutOfTimeError
            left = deadline - now
            if cpu_began is not None:
                used = self.cpu_seconds()
                if used is not None and used - cpu_began >= seconds:
                    raise OutOfTimeError
                left = min(left, POLL)
            for key, _ in self.selector.select(left):
                data = self._read(key.fd)
                if key.fd == self.output and data:
                    _add(outputs, data)
                elif key.fd == self.output:
                    self.selector.unregister(self.output)
                elif data:
                    self.buffer += data
                else:
                    self.drain(*outputs)
                    raise ChildDiedError(self._status())

    def cpu_seconds(self) -> float | None:
        """The judged process's CPU time so far (user and system), or None where the system
        does not say (no /proc): then the limits are on the clock.  Read at most once per
        POLL: a read costs more than a small question, and the limits need no finer."""
        now = time.monotonic()
        if now - self._cpu_read_at < POLL:
            return self._cpu
        try:
            with open(f"/proc/{self.process.pid}/stat", "rb") as stat:
                fields = stat.read().rsplit(b")", 1)[1].split()
            self._cpu = (int(fields[11]) + int(fields[12])) / TICKS
        except (OSError, IndexError):
            self._cpu = None
        self._cpu_read_at = now
        return self._cpu

    def drain(self, *outputs: Kept) -> None:
        """Whatever the module wrote before its last reply: it is in the pipe already.

        Read when a test ends, and when the process is stopped, rather than after
        every reply: each read of an empty pipe costs as much as a small question.
        """
        with contextlib.suppress(KeyError, ValueError):
            self.selector.get_key(self.output)
            while data := self._read(self.output):
                _add(outputs, data)

    def _complete(self) -> bytes | None:
        if len(self.buffer) < HEADER.size:
            return None
        size = HEADER.size + HEADER.unpack_from(self.buffer)[0]
        if len(self.buffer) < size:
            return None
        message = bytes(self.buffer[HEADER.size : size])
        del self.buffer[:size]
        return message

    @staticmethod
    def _read(fd: int) -> bytes:
        try:
            return os.read(fd, 1 << 16)
        except BlockingIOError:
            return b""

    def _status(self) -> int | None:
        try:
            return self.process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.kill()
            return self.process.returncode

    def kill(self) -> None:
        """The process and everything it started (its session), ended and reaped."""
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(self.process.pid, signal.SIGKILL)
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.process.wait(timeout=5)
        self.selector.close()
        for fd in (self.requests, self.replies, self.output):
            with contextlib.suppress(OSError):
                os.close(fd)


class Judge:
    """Puts questions to a module running in a process of its own; an `Asker`."""

    def __init__(
        self,
        source: str,
        limits: Limits = Limits(),
        transport: Callable[[Place], Transport] | None = None,
    ) -> None:
        self.source, self.limits = source, limits
        self.transport = transport or default_transport()
        # The judged process works in a scratch folder: a path is given to it in full.
        is_path = source.endswith(".py") or "/" in source or "\\" in source
        self.target = os.path.abspath(source) if is_path else source
        self.workdir = tempfile.mkdtemp(prefix="kata-judged-")
        self.paths = [str(ROOT), os.getcwd()]
        self.child: Transport | None = None
        self.events: list[Event] = []
        self.run_output = Kept(0)  # counted, not kept: the run's total
        self.test, self.test_spent, self.run_spent = "", 0.0, 0.0
        self.test_output = Kept()
        self.void, self.exercise = "", ""
        self.answered: dict[str, set[str]] = {}  # exercise -> functions that answered a call

    def written(self, exercise: Exercise, function: str) -> bool:
        """Whether `function` has answered a call in this run (it is not a stub)."""
        return function in self.answered.get(exercise.name, ())

    # --- the run's life ------------------------------------------------------------------

    def load(self) -> Loaded:
        """Start the judged process and import the module there; LoadError saying why not."""
        output = Kept()
        try:
            reply = self._start(self.limits.per_call, output)
        except OutOfTimeError:
            raise LoadError(
                f"{self.source} did not finish importing within {self.limits.per_call:g} s of CPU "
                f"time (a loop at import, or input() waiting?){_excerpt(output)}"
            ) from None
        except ChildDiedError as died:
            raise LoadError(
                f"{self.source}: its process {_death(died.status)} while it was imported"
                f"{_excerpt(output)}"
            ) from None
        if reply[0] == "failed":
            raise LoadError(f"{reply[1]}{_excerpt(output)}")
        _, provided, file, tampered = reply
        self.void = tampered
        return Loaded({name: frozenset(names) for name, names in provided.items()}, file)

    def begin(self, test: str) -> None:
        """A test starts: its budget and its output are its own."""
        if self.child is not None:
            self.child.drain(self.run_output)  # the last test's, counted for the run
        self.test, self.test_spent, self.test_output = test, 0.0, Kept()

    def output_of_test(self) -> str:
        if self.child is not None:
            self.child.drain(*self._sinks())
        return self.test_output.text() if self.test_output.total else ""

    def finish(self) -> None:
        """The run is over: a last look at whether the module changed the harness."""
        if self.child is None or self.void:
            return
        try:
            self.child.send(pickle.dumps(("check",)))
            # On the clock: after Ctrl-C the process may still be answering questions sent
            # before it, which a last look need not wait out.
            reply = _plain(self.child.reply(self.limits.per_call, on_the_clock=True))
        except (OutOfTimeError, ChildDiedError):
            self._stop()
            return
        if reply[1]:
            self.void = reply[1]
            self.events.append(Event("void", self.test, "(the end of the run)", self._void_text()))

    def close(self) -> None:
        if self.child is not None:
            with contextlib.suppress(Exception):
                self.child.send(pickle.dumps(("bye",)))
            self.child.kill()
            self.child = None
        shutil.rmtree(self.workdir, ignore_errors=True)

    # --- asking ---------------------------------------------------------------------------

    def answers(self, exercise: Exercise, questions: Iterable[Question]) -> Iterator[Outcome]:
        """One outcome per question, sent CHUNK at a time, each read as it is settled."""
        self.exercise = exercise.name
        waiting = iter(questions)
        while chunk := list(itertools.islice(waiting, CHUNK)):
            child = self._running(chunk[0])
            try:
                asks = [q.ask for q in chunk]
                message = pickle.dumps(("ask", exercise.name, self.test, asks), protocol=5)
            except Exception as error:
                raise TypeError(
                    f"the harness cannot send this question to the judged process ({error}): "
                    f"its ask must be a module-level function or a partial of one: {chunk[0]}"
                ) from None
            self._send(child, message, chunk[0])
            unread = len(chunk)
            try:
                for question in chunk:
                    reply = self._reply(child, question)
                    unread -= 1
                    yield self._outcome(question, reply)
            finally:
                if unread and self.child is child:
                    self._skip_replies(child, unread)

    def _running(self, question: Question) -> Transport:
        """The judged process, started again if it had to be stopped."""
        if self.void:
            raise self._unanswered("void", question, self._void_text())
        self._refuse_when_spent(question)
        if self.child is None:
            output, started = Kept(), time.monotonic()
            try:
                reply = self._start(self._time_left(question)[0], output, *self._sinks())
            except (OutOfTimeError, ChildDiedError):
                reply = ("failed", "it did not load again")
            finally:  # a new process: its CPU time so far is the import's
                cpu = self.child.cpu_seconds() if self.child is not None else None
                self._spend(time.monotonic() - started if cpu is None else cpu)
            if reply[0] != "loaded":
                raise self._unanswered(
                    "exit", question, f"your module could not be started again: {reply[1]}"
                )
            self.void = reply[3]
        assert self.child is not None
        return self.child

    def _start(self, seconds: float, *outputs: Kept) -> Any:
        self.child = self.transport(
            Place(self.paths, self.workdir, self.limits.memory, self.target)
        )
        self.child.send(pickle.dumps(("load", self.target, self.source)))
        try:
            reply = _plain(self.child.reply(seconds, *outputs))
        except (OutOfTimeError, ChildDiedError):
            self.child.drain(*outputs)
            self._stop()
            raise
        self.child.drain(*outputs)  # what it printed at import
        return reply

    def _send(self, child: Transport, message: bytes, question: Question) -> None:
        try:
            child.send(message)
        except ChildDiedError as died:
            self._stop()
            raise self._died(question, died.status, Kept()) from None

    def _reply(self, child: Transport, question: Question) -> Any:
        seconds, bound = self._time_left(question)
        output, started = Kept(), child.cpu_seconds()
        began = time.monotonic()
        try:
            return child.reply(seconds, output, *self._sinks())
        except OutOfTimeError:
            child.drain(output, *self._sinks())
            self._stop()
            raise self._timed_out(question, seconds, bound, output) from None
        except ChildDiedError as died:
            self._stop()
            raise self._died(question, died.status, output) from None
        finally:
            ended = child.cpu_seconds()
            cpu = None if started is None or ended is None else ended - started
            self._spend(time.monotonic() - began if cpu is None else cpu)

    def _skip_replies(self, child: Transport, count: int) -> None:
        """Replies to questions no longer wanted (a check failed first), read and dropped.

        Quicker than starting the process again, unless they take long: then it is.
        """
        deadline = time.monotonic() + DRAIN_SECONDS
        for _ in range(count):
            try:
                child.reply(max(deadline - time.monotonic(), 0), *self._sinks(), on_the_clock=True)
            except (OutOfTimeError, ChildDiedError):
                self._stop()
                return

    def _outcome(self, question: Question, data: bytes) -> Outcome:
        try:
            reply = _plain(data)
        except Exception as error:
            return Malformed(
                f"the answer holds something only your module can read ({error}): the "
                "contract's answers are plain values and records",
                "",
            )
        kind = reply[0]
        if kind in ("outcome", "not implemented", "not attempted", "exited"):
            self.answered.setdefault(self.exercise, set()).update(reply[-1])
        if kind == "outcome":
            outcome: Outcome = with_shown(question, reply[1])
            if isinstance(outcome, Raised) and outcome.kind == "MemoryError":
                limit = f"(your module's process may use {self.limits.memory / 2**30:g} GiB)"
                outcome = replace(outcome, message=f"{outcome.message} {limit}".strip())
            return outcome
        if kind == "not implemented":
            raise NotImplementedYet(reply[1])
        if kind == "not attempted":
            import pytest

            pytest.skip(reply[1])
        if kind == "exited":
            raise self._unanswered(
                "exit",
                question,
                f"your module called sys.exit({reply[1]!r}) during this call: a function of the "
                "contract returns or raises; it never ends the program",
            )
        if kind == "void":
            self.void = reply[1]
            raise self._unanswered("void", question, self._void_text())
        return Malformed(f"the answer could not be sent back: {reply[1]}", "")

    # --- limits -----------------------------------------------------------------------------

    def _refuse_when_spent(self, question: Question) -> None:
        hangs = [e for e in self.events if e.kind == "time limit"]
        if len(hangs) >= self.limits.hangs:
            raise self._unanswered(
                "not asked",
                question,
                f"not asked: your module hung {len(hangs)} times (the first: {hangs[0].question}), "
                "so the run stops asking it; fix that hang first",
            )
        if self.run_spent >= self.limits.per_run:
            raise self._unanswered(
                "not asked",
                question,
                f"not asked: your module has used the run's {self.limits.per_run:g} s",
            )

    def _time_left(self, question: Question) -> tuple[float, str]:
        """Seconds this question may take, and which limit that is."""
        limits = [
            (self.limits.per_call, "call"),
            (self.limits.per_test - self.test_spent, "test"),
            (self.limits.per_run - self.run_spent, "run"),
        ]
        seconds, bound = min(limits)
        if seconds <= 0:
            raise self._unanswered(
                "test time",
                question,
                f"not asked: this test has used its {self.limits.per_test:g} s for your module",
            )
        return seconds, bound

    def _sinks(self) -> tuple[Kept, Kept]:
        return self.test_output, self.run_output

    def _spend(self, seconds: float) -> None:
        self.test_spent += seconds
        self.run_spent += seconds

    def _stop(self) -> None:
        if self.child is not None:
            self.child.kill()
            self.child = None

    def _timed_out(
        self, question: Question, seconds: float, bound: str, output: Kept
    ) -> Unanswered:
        if bound == "call":
            return self._unanswered(
                "time limit",
                question,
                f"no answer within {seconds:g} s of its CPU time (or {WAITING * seconds:g} s "
                f"waiting): the call was stopped and your module started again (the time limit "
                f"per call; --time-limit sets it){_excerpt(output)}",
            )
        budget = self.limits.per_test if bound == "test" else self.limits.per_run
        return self._unanswered(
            f"{bound} time",
            question,
            f"no answer when this {bound}'s {budget:g} s for your module ran out: the call was "
            f"stopped{_excerpt(output)}",
        )

    def _died(self, question: Question, status: int | None, output: Kept) -> Unanswered:
        return self._unanswered(
            "exit",
            question,
            f"your module's process {_death(status)} during this call; it was started again for "
            f"the next one{_excerpt(output)}",
        )

    def _void_text(self) -> str:
        return f"not judged: {self.void}; no answer of it counts from then on"

    def _unanswered(self, kind: str, question: Question, detail: str) -> Unanswered:
        if not question.bundle:  # a bundle's questions are asked again, alone, and met there
            self.events.append(Event(kind, self.test, shorten(str(question), 300), detail))
        return Unanswered(
            f"{question}\n  {detail}", kind=kind, question=question, exercise=self.exercise
        )


def _death(status: int | None) -> str:
    if status is None or status >= 0:
        return f"exited with status {status}"
    name = _signal_name(-status)
    hint = {
        "SIGKILL": " (by the kernel, or out of memory)",
        "SIGXFSZ": " (it wrote a file past the size limit)",
        "SIGSEGV": " (a crash in C code)",
    }.get(name, "")
    return f"was killed by signal {name}{hint}"


def _signal_name(number: int) -> str:
    try:
        return signal.Signals(number).name
    except ValueError:
        return str(number)


def _excerpt(output: Kept) -> str:
    if not output.total:
        return ""
    return f"\n  It printed {output.total:,} bytes; what was kept:\n{_indented(output.text())}"


def _indented(text: str) -> str:
    return "\n".join("    | " + line for line in shorten(text, 3_000).splitlines())


# --- reading replies: plain values and the harness's records, nothing else -------------------

_BUILTINS = frozenset(
    {"tuple", "list", "dict", "set", "frozenset", "int", "float", "complex", "str", "bytes"}
    | {"bytearray", "bool", "slice", "range"}
)
_ALLOWED = frozenset({("fractions", "Fraction"), ("decimal", "Decimal")})


class _PlainUnpickler(pickle.Unpickler):
    def find_class(self, module: str, name: str) -> Any:
        if (module == "builtins" and name in _BUILTINS) or (module, name) in _ALLOWED:
            return super().find_class(module, name)
        if module.startswith(("tests.support.", "kata.")) and module != "kata.process.judged":
            found = super().find_class(module, name)
            if isinstance(found, type):
                return found
        raise pickle.UnpicklingError(f"a {module}.{name}")


def _plain(data: bytes) -> Any:
    import io

    return _PlainUnpickler(io.BytesIO(data)).load()
