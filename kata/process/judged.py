"""The judged process: it imports the module under test and answers questions about it.

    python -c "...; from kata.process.judged import main; main()" REQUESTS REPLIES MEMORY

The judge (`kata.process.judge`) starts this process, sends it requests on
the file descriptor REQUESTS and reads replies on REPLIES; the module's own
output goes to standard output and error, which the judge reads apart.  A
request is ``("load", path, source)``, ``("ask", exercise, test, [ask, ...])``,
``("check",)`` or ``("bye",)``; each ask is answered by one reply, in order, as soon as it is
settled, so the judge can time every question on its own.  Objects a test's
questions keep (`Module.keep`) live here until another test asks.

Whatever the module does happens here, never in the judge: it may patch,
print, hang, exit or crash; the judge sees only the plain replies, compares
them itself, and restarts this process when it must.  The harness's own code
is snapshotted before the module is imported, and compared after the import,
after each test and at the end of the run; a module that changes it is
reported, and the whole run is void.
"""

from __future__ import annotations

import contextlib
import functools
import importlib
import os
import pickle
import signal
import struct
import sys
from collections.abc import Callable
from types import FunctionType, ModuleType
from typing import Any

HEADER = struct.Struct("!Q")  # every message: its length, then its pickle
MAX_REPLY = 64 * 2**20  # bytes: a larger answer is refused, not sent
FILE_LIMIT = 256 * 2**20  # bytes: the largest file the module may write
# The harness modules an ask may use: imported, then snapshotted, before the module is.
HARNESS = (
    "kata.exercises",
    "kata.impl",
    "kata.outcomes",
    "kata.checks",
    "tests.support.sessions",
    "kata.cost",
    "tests.support.detecting",
    "tests.support.sweeping",
    "tests.support.remembering",
    "tests.support.retrying",
    "tests.support.batching",
    "tests.support.crediting",
    "tests.support.diagnosing",
)


def main() -> None:
    requests, replies, memory = (int(argument) for argument in sys.argv[1:4])
    _die_with_the_judge()
    _limit(memory)
    serve(Channel(functools.partial(os.read, requests), functools.partial(os.write, replies)))


def serve(channel: Channel) -> None:
    """Answer the judge's requests on `channel` until it says bye (or is gone): the
    harness imported and snapshotted first, then the module when it is asked to load it.
    A browser page's worker (`kata.process.browser`) serves the same way."""
    harness = [importlib.import_module(name) for name in HARNESS]
    fingerprint = _fingerprint(harness)
    answerer = _Answerer(channel, harness, fingerprint)
    answerer.serve()


class Channel:
    """Length-prefixed pickles, read with `read(size)` (at most size bytes, b"" at the end)
    and written with `write(data)` (the count written): two pipes' ends here, a page's
    shared memory in a browser.  Its functions are bound before the module loads."""

    def __init__(self, read: Callable[[int], bytes], write: Callable[[memoryview], int]) -> None:
        self._read, self._write, self._dumps, self._loads = (
            read,
            write,
            pickle.dumps,
            pickle.loads,
        )
        self._pid, self._exit = os.getpid(), os._exit

    def receive(self) -> Any:
        header = self._exactly(HEADER.size)
        if header is None:
            self._exit(0)  # the judge is gone
        body = self._exactly(HEADER.unpack(header)[0])
        if body is None:
            self._exit(0)
        return self._loads(body)

    def send(self, reply: Any) -> None:
        self.stay_the_only_copy()
        try:
            data = self._dumps(reply, protocol=5)
        except Exception as error:  # an answer holding what cannot be sent (a lambda, ...)
            data = self._dumps(("unsendable", f"{type(error).__name__}: {error}"), protocol=5)
        if len(data) > MAX_REPLY:
            data = self._dumps(("unsendable", f"an answer of {len(data):,} bytes"), protocol=5)
        view = memoryview(HEADER.pack(len(data)) + data)
        while view:
            view = view[self._write(view) :]

    def stay_the_only_copy(self) -> None:
        """A copy of this process made by the module's fork() never speaks for it."""
        if os.getpid() != self._pid:
            self._exit(0)

    def _exactly(self, size: int) -> bytes | None:
        chunks, left = [], size
        while left:
            chunk = self._read(min(left, 1 << 20))
            if not chunk:
                return None
            chunks.append(chunk)
            left -= len(chunk)
        return b"".join(chunks)


class _Answerer:
    def __init__(self, channel: Channel, harness: list[ModuleType], fingerprint: Any) -> None:
        self.channel, self.harness, self.fingerprint = channel, harness, fingerprint
        self.modules: dict[str, Any] = {}
        self.tampered, self.test = "", ""
        from kata import outcomes

        self.settle, self.raised = outcomes.settle, outcomes.raised
        self.not_implemented, self.not_attempted = _markers()

    def serve(self) -> None:
        while True:
            request = self.channel.receive()
            self.channel.stay_the_only_copy()
            if request[0] == "load":
                self.channel.send(self.load(*request[1:]))
            elif request[0] == "ask":
                _, exercise, test, asks = request
                if test != self.test:  # the last test is over: check what it left behind
                    self.test = test
                    self.check_the_harness()
                    for module in self.modules.values():
                        module.forget()
                for ask in asks:
                    self.channel.send(self.answer(exercise, ask))
            elif request[0] == "check":
                self.check_the_harness()
                self.channel.send(("checked", self.tampered))
            else:
                return

    def load(self, source: str, shown: str) -> Any:
        from kata.impl import LoadError, import_source, modules_of

        try:
            module = None if source == "reference" else import_source(source)
        except LoadError as error:
            return ("failed", str(error).replace(source, shown))
        except SystemExit as exit:
            return ("failed", f"{shown} exited (sys.exit({exit.code!r})) while it was imported")
        except BaseException as error:  # KeyboardInterrupt and the like, raised at import
            return ("failed", f"cannot import {shown}: {type(error).__name__}: {error}")
        finally:
            _flush()
            self.channel.stay_the_only_copy()
        self.modules = modules_of(shown, module)
        self.check_the_harness()
        provided = {
            name: sorted(n for n in m.exercise.names if m.provides(n))
            for name, m in self.modules.items()
        }
        file = next((m.file for m in self.modules.values()), None)
        return ("loaded", provided, file, self.tampered)

    def answer(self, exercise: str, ask: Callable[[Any], Any]) -> Any:
        module = self.modules[exercise]
        try:
            outcome: Any = ("outcome", self.settle(ask, module))
        except self.not_implemented as error:
            outcome = ("not implemented", str(error))
        except self.not_attempted as error:
            outcome = ("not attempted", str(error))
        except SystemExit as exit:
            outcome = ("exited", exit.code if isinstance(exit.code, int | None) else str(exit.code))
        except BaseException as error:  # KeyboardInterrupt from the module: its own exception
            outcome = ("outcome", self.raised(error, module.file))
        _flush()
        if self.tampered:
            return ("void", self.tampered)
        return (*outcome, frozenset(module.answered))  # what is written so far, for the judge

    def check_the_harness(self) -> None:
        if not self.tampered:
            changed = _changed(self.fingerprint, _fingerprint(self.harness))
            self.tampered = f"the module changed the judge's code: {changed}" if changed else ""


def _markers() -> tuple[type[BaseException], type[BaseException]]:
    from kata.impl import NotAttempted, NotImplementedYet

    return NotImplementedYet, NotAttempted


def _fingerprint(harness: list[ModuleType]) -> dict[str, tuple[int, ...]]:
    """Identity of everything the harness's modules hold, of their classes' members and of
    their functions' code and defaults: cheap to take again and compare."""
    seen: dict[str, tuple[int, ...]] = {}
    for module in harness:
        seen[module.__name__] = tuple(map(id, vars(module).values()))
        for name, value in list(vars(module).items()):
            where = f"{module.__name__}.{name}"
            if isinstance(value, FunctionType):
                seen[where] = (id(value.__code__), id(value.__defaults__))
            elif isinstance(value, type) and value.__module__ == module.__name__:
                members = {k: v for k, v in vars(value).items() if k not in CACHES}
                seen[where] = tuple(map(id, members.values()))
                for attribute, member in members.items():
                    if isinstance(member, FunctionType):
                        seen[f"{where}.{attribute}"] = (
                            id(member.__code__),
                            id(member.__defaults__),
                        )
    return seen


CACHES = ("__slotnames__",)  # what Python itself adds to a class (pickle's copyreg)


def _changed(before: dict[str, tuple[int, ...]], after: dict[str, tuple[int, ...]]) -> str:
    names = sorted(n for n in before.keys() | after.keys() if before.get(n) != after.get(n))
    return ", ".join(names[:3]) + (f" and {len(names) - 3} more" if len(names) > 3 else "")


def _flush() -> None:
    """What the module printed reaches the judge before the reply that follows it."""
    for stream in (sys.stdout, sys.stderr, sys.__stdout__, sys.__stderr__):
        with contextlib.suppress(Exception):  # a module may set them to anything
            getattr(stream, "flush", lambda: None)()


def _die_with_the_judge() -> None:
    """The kernel kills this process when the judge dies, whatever kills the judge (Linux)."""
    with contextlib.suppress(Exception):  # elsewhere the closed request pipe ends it
        import ctypes

        ctypes.CDLL(None).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
        if os.getppid() == 1:  # the judge died before the line above ran
            os._exit(0)


def _limit(memory: int) -> None:
    """Memory, file size and core dumps bounded for the module and everything it starts."""
    import resource

    for limit, value in (
        (resource.RLIMIT_AS, memory),
        (resource.RLIMIT_FSIZE, FILE_LIMIT),
        (resource.RLIMIT_CORE, 0),
    ):
        with contextlib.suppress(ValueError, OSError):  # a lower hard limit already set stays
            resource.setrlimit(limit, (value, value))
