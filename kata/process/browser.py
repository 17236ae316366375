"""The judge's transport in a browser page: the module under test in a web worker of its own.

A page has no processes.  Its Python (Pyodide: CPython compiled to WebAssembly)
runs in web workers: the judge (pytest and the kata) in one, the module under
test in another, which the page starts for it.  The two speak the judge's own
messages (`kata.process.judge`, `kata.process.judged`) through byte rings in
memory they share (web/channel.js), the judge waiting on them with its time
limits (``Atomics.wait``).  A call past its limit is stopped by ending the
module's worker (``Worker.terminate``); the next question goes to a fresh one,
which the page boots in advance: between runs, and during a run once a call has
gone a second without its reply.  An endless print fills a bounded ring and is
read into the judge's bounded buffers, as a pipe is on the command line.

The JavaScript side registers its functions as the module ``kata_channel``
before any of this runs: `start_worker` and `Worker` on the judge's side,
`serve_judged` on the module's.

What this does not promise: a worker keeps the page responsive and stops a call
that runs too long, but it shares the page's origin, so a module that wants to
can reach the page and forge its own verdict.  The judged process of the command
line (a process of its own, resource limits, its output read apart) stays the
tool for judging a stranger's code; the page is for judging one's own.
"""

from __future__ import annotations

import contextlib
import importlib
import json
import os
import signal
import sys
import time
from pathlib import Path
from typing import Any

from kata.process.judge import ChildDiedError, Kept, OutOfTimeError, Place
from kata.process.judged import HEADER, Channel, serve

# The rings of a worker's channel (web/channel.js numbers them alike).
REQUESTS, REPLIES, OUTPUT = 0, 1, 2
# Seconds the judge waits for a worker to serve: a fresh one boots Python first, which on
# a slow machine takes this long at worst; the time limits count from the load request.
START_SECONDS = 120.0
WAIT_SLICE = 0.5  # seconds of one wait for the worker to write, between looks at its state
READ_SIZE = 1 << 20  # bytes at most taken from a ring at once
# Seconds a call waits for its reply before the page is told to boot a worker to replace
# this one, should the call be stopped: booted beside every run instead, it takes a core
# from the run (0.3 s of the detector's first step, about 3 s, on two cores).
SLOW_SECONDS = 1.0


def _js() -> Any:
    """The page's functions (web/channel.js), registered as a module before Python runs."""
    return importlib.import_module("kata_channel")


# --- the judge's side -------------------------------------------------------------------


def start_worker(place: Place) -> Worker:
    """A worker serving the module of `place`: the file it names, mirrored into the worker's
    own file system, and the same import paths and working folder."""
    return Worker(place)


class Worker:
    """A `kata.process.judge.Transport`: one life of the module's worker."""

    def __init__(self, place: Place) -> None:
        self.js = _js()
        target = Path(place.target)
        files = {str(target): target.read_text()} if target.is_file() else {}
        request = {"paths": list(place.paths), "workdir": place.workdir, "files": files}
        self.slot = int(self.js.spawn(json.dumps(request), START_SECONDS * 1000))
        if self.slot < 0:
            raise ChildDiedError(None)
        self.serving = time.monotonic()  # the worker booted before: its boot is not the module's
        self.buffer = bytearray()
        self.killed = False

    def send(self, message: bytes) -> None:
        data = HEADER.pack(len(message)) + message
        if int(self.js.write(self.slot, REQUESTS, data)) < len(data):
            raise ChildDiedError(self._status())

    def reply(self, seconds: float, *outputs: Kept, on_the_clock: bool = False) -> bytes:
        """The next reply; limits on the clock (a worker's CPU time cannot be read)."""
        began = time.monotonic()
        deadline, warned = began + seconds, False
        while True:
            message = self._complete()
            if message is not None:
                return message
            left = deadline - time.monotonic()
            ended, took = self._poll(outputs, min(max(left, 0.0), WAIT_SLICE))
            if took:
                continue
            if ended:  # and all it wrote is read: no reply is coming
                raise ChildDiedError(self._status())
            if left <= 0:
                raise OutOfTimeError
            if not warned and time.monotonic() - began >= SLOW_SECONDS:
                warned = True
                self.js.slow()  # the page boots the next worker, in case this one is ended

    def cpu_seconds(self) -> float | None:
        """The worker's time serving, on the clock: its CPU time cannot be read, and the
        time it took to boot (or to be handed over) is not the module's to spend."""
        return time.monotonic() - self.serving

    def drain(self, *outputs: Kept) -> None:
        while data := self._read(OUTPUT):
            _add(outputs, data)

    def kill(self) -> None:
        if not self.killed:
            self.killed = True
            self.js.kill(self.slot)

    def _poll(self, outputs: tuple[Kept, ...], seconds: float) -> tuple[bool, bool]:
        """One look at the worker (web/channel.js `poll`), waiting up to `seconds` if it has
        written nothing: its output into `outputs`, its replies into the buffer; whether it
        has ended, and whether anything was taken."""
        look = bytes(self.js.poll(self.slot, READ_SIZE, seconds * 1000).to_bytes())
        ended, printed = look[0] == 1, int.from_bytes(look[1:5], "little")
        _add(outputs, look[5 : 5 + printed])
        self.buffer += look[5 + printed :]
        return ended, len(look) > 5

    def _read(self, ring: int) -> bytes:
        return bytes(self.js.read(self.slot, ring, READ_SIZE).to_bytes())

    def _complete_size(self) -> int | None:
        if len(self.buffer) < HEADER.size:
            return None
        size = HEADER.size + HEADER.unpack_from(self.buffer)[0]
        return size if len(self.buffer) >= size else None

    def _complete(self) -> bytes | None:
        size = self._complete_size()
        if size is None:
            return None
        message = bytes(self.buffer[HEADER.size : size])
        del self.buffer[:size]
        return message

    def _status(self) -> int | None:
        status = self.js.status(self.slot)
        return None if status is None else int(status)


def _add(outputs: tuple[Kept, ...], data: bytes) -> None:
    if data:
        for output in outputs:
            output.add(data)


def check(argv: list[str]) -> int:
    """``python -m kata`` with `argv`, in the judge's worker, which judges run after run in
    one interpreter: each run's evidence is its own, as in a process of its own."""
    from hypothesis import settings

    from kata import cli
    from kata.evidence import LEDGER, Ledger

    vars(LEDGER).update(vars(Ledger()))
    # A process starts with hypothesis's default profile: the last run's choice
    # (--hypothesis-profile) is not this one's.
    settings.load_profile("default")
    forget_test_modules()
    return cli.main(argv)


def forget_test_modules() -> None:
    """The suite's test modules (and conftests) dropped from sys.modules, so that a run
    imports them again, as a process does: hypothesis fixes a property's settings when its
    module is imported, and a run's profile is its own.  Their rewritten code stays cached
    (__pycache__), and the modules they import (pytest, hypothesis, the kata) stay loaded."""
    from kata.exercises import ROOT

    tests = ROOT / "tests"
    for name, module in list(sys.modules.items()):
        found = getattr(module, "__file__", None)
        if found is None:
            continue
        path = Path(found)
        if path.name.startswith(("test_", "conftest")) and tests in path.parents:
            del sys.modules[name]


def warm(exercise: str) -> None:
    """A quiet check of the exercise's starter, asked here, before the page's first run:
    pytest imports its plugins, the kata's and the exercise's tests as a run does (their
    asserts rewritten), and the gallery's known mistakes are loaded, so the first run
    starts at once and prints what any run prints."""
    import io

    import pytest

    from kata import catalogue
    from kata.evidence import LEDGER, Ledger
    from kata.exercises import EXERCISES, ROOT

    chosen = EXERCISES[exercise]
    options = [f"--impl={chosen.starter}", "--trusted", "--steps", "-q", "-p", "no:cacheprovider"]
    options += [f"--rootdir={ROOT}", f"--config-file={ROOT / 'pytest.ini'}", str(chosen.tests)]
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        pytest.main(options)
    # The gallery's modules import each other from the suite's folder, which a run puts on
    # the path (the suite's pytest.ini) and this does too, for as long as they load.
    sys.path.insert(0, str(ROOT))
    try:
        catalogue.mistakes(exercise)
    finally:
        sys.path.remove(str(ROOT))
    vars(LEDGER).update(vars(Ledger()))


# --- the module's side ------------------------------------------------------------------


def serve_judged(paths: list[str], workdir: str) -> None:
    """Serve the judge from this worker, as `kata.process.judged.main` does from a process:
    the judge's import paths and working folder, then its requests until it says bye."""
    sys.path[:] = [*paths, *(path for path in sys.path if path and path not in paths)]
    os.makedirs(workdir, exist_ok=True)
    os.chdir(workdir)
    js = _js()

    def read(size: int) -> bytes:
        return bytes(js.read_request(size).to_bytes())

    def write(data: memoryview) -> int:
        return int(js.write_reply(data))

    serve(Channel(read, write))


# --- what Pyodide lacks -------------------------------------------------------------------


def fill_in() -> None:
    """The clocks the harness reads that Pyodide lacks: a thread's CPU time is the worker's
    (one thread each), and a timer (`signal.setitimer`) is the page's, if it lent one
    (``kata_channel.arm``), else none: the call runs to its end."""
    if not hasattr(time, "thread_time_ns"):
        time.thread_time_ns = time.process_time_ns  # type: ignore[attr-defined,unused-ignore]
        time.thread_time = time.process_time  # type: ignore[attr-defined,unused-ignore]
    if not hasattr(signal, "setitimer"):
        with contextlib.suppress(ImportError):
            signal.setitimer = _Timer(_js()).setitimer  # type: ignore[attr-defined,unused-ignore]
        for name, number in (("ITIMER_REAL", 0), ("ITIMER_PROF", 2)):
            if not hasattr(signal, name):
                setattr(signal, name, number)


class _Timer:
    """`signal.setitimer` from the page's clock worker: when a timer is due, it raises the
    timer's signal in this interpreter (Pyodide's interrupt buffer)."""

    def __init__(self, js: Any) -> None:
        self.js = js
        self.signals = {0: 14, 2: 27}  # ITIMER_REAL: SIGALRM, ITIMER_PROF: SIGPROF

    def setitimer(self, which: int, seconds: float, interval: float = 0.0) -> tuple[float, float]:
        left = float(self.js.arm(self.signals.get(which, 14), seconds * 1000))
        return max(left, 0.0) / 1000, 0.0
