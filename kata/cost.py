"""Cost as evidence: the same workload at two sizes, compared in one run.

Two measures, each a ratio of the work per operation at the larger size to
the work at the smaller:

- `work`, the Python lines executed (a line event of the tracer) at n and
  8n: counted, never timed, so the same on any machine.  It sees every loop
  written in Python, and nothing done in C (`list.remove`, a copy of a dict,
  a list's `pop(0)`).
- `timed`, the CPU time of the judged thread per operation at n and 64n
  (`time.thread_time_ns`): the least of several tries of each size, the two
  sizes taken in turns.  It sees everything, C included.  CPU time is not
  the wall clock: a process beside it, or a slower machine, takes nothing
  from it but cache, and that the least of several tries leaves out.  The
  sizes are far apart so that the answers are too: constant or logarithmic
  work stays under 1.5x, while linear work done in C grows 6x to 70x
  (measured in WRITEUP section 8); a limit of 3x leaves a margin of 2x on
  both sides.

A cost check asks both: the count decides a Python loop on every machine,
the CPU clock catches the work a count cannot see.
"""

from __future__ import annotations

import gc
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from types import FrameType
from typing import Any

from kata.exercises import ROOT
from kata.impl import Module
from kata.outcomes import Question

# The harness's and the tests' own lines are not the module's work.
HARNESS = (str(Path(__file__).resolve().parent), str(ROOT / "tests"))
# An installed wheel keeps the suite inside the package (kata/suite/): its gallery's answers
# are code whose lines are the work measured, not the harness's.
ANSWERS = str(ROOT / "gallery")
GROWTH = 8  # the larger size over the smaller, counted
LEVEL = 2.0  # the most work per operation may grow, n -> 8n, and still count as constant
TIMED_GROWTH = 64  # the larger size over the smaller, timed
TIMED_LEVEL = 3.0  # the same, for CPU time, n -> 64n: right answers <1.5x, wrong ones >6x
BATCH_NS = 2_000_000  # each timed try runs the operation this much CPU time at the smaller size
TRIES, CPU_BUDGET_NS = 7, 1_000_000_000  # tries of each size, and the CPU time they may take
CPU_US = "us of CPU"  # what a timed check measures, per operation


def work(thunk: Callable[[], Any]) -> int:
    """The Python lines executed while `thunk()` runs, not counting the tests' own.

    The workload's loop and the harness's wrappers are the same at any size and
    would only blur the comparison.
    """
    count = 0

    def trace(frame: FrameType, event: str, arg: object) -> Callable[..., Any] | None:
        nonlocal count
        name = frame.f_code.co_filename
        if name.startswith(HARNESS) and not name.startswith(ANSWERS):
            return None  # the tests' own frames: neither counted nor traced inside
        if event == "line":
            count += 1
        return trace

    previous, collecting = sys.gettrace(), gc.isenabled()
    gc.disable()  # a collection would run other objects' finalizers inside the count
    sys.settrace(trace)
    try:
        thunk()
    finally:
        sys.settrace(previous)
        if collecting:
            gc.enable()
    return count


def growth(per_operation: Callable[[int], float], n: int) -> tuple[float, float, float]:
    """Work per operation at n and at 8n, and its growth."""
    small, large = per_operation(n), per_operation(GROWTH * n)
    return small, large, large / max(small, 1.0)


def timed(
    prepare: Callable[[int], Callable[[], object]], n: int, *, limit: float, unit: str
) -> Growth:
    """CPU time per operation at n and at 64n: `prepare(size)` builds the state, returns
    the operation (called many times: it must keep the state's size the same)."""
    small, large = prepare(n), prepare(TIMED_GROWTH * n)
    calls = _calibrated(small)
    best = [float("inf"), float("inf")]
    collecting, started = gc.isenabled(), time.thread_time_ns()
    gc.disable()
    try:
        for attempt in range(TRIES):
            for which, operation in enumerate((small, large)):
                best[which] = min(best[which], _cpu_ns(operation, calls))
            if attempt >= 2 and time.thread_time_ns() - started > CPU_BUDGET_NS:
                break
    finally:
        if collecting:
            gc.enable()
    per_small, per_large = (b / calls / 1000 for b in best)
    return Growth(
        per_large / per_small <= limit, per_small, per_large, limit, unit, CPU_US, TIMED_GROWTH
    )


def _cpu_ns(operation: Callable[[], object], calls: int) -> int:
    """The CPU time of this thread, in ns, while `operation` runs `calls` times."""
    begun = time.thread_time_ns()
    for _ in range(calls):
        operation()
    return max(time.thread_time_ns() - begun, 1)


def _calibrated(operation: Callable[[], object]) -> int:
    """How many calls of `operation` take BATCH_NS of CPU (at least 1, at most 10,000)."""
    calls = 1
    while calls < 10_000 and _cpu_ns(operation, calls) < BATCH_NS:
        calls *= 2
    return calls


@dataclass(frozen=True)
class Growth:
    """A cost check's answer: level or not, with what was measured (not compared)."""

    level: bool
    small: float = field(default=0.0, compare=False)
    large: float = field(default=0.0, compare=False)
    limit: float = field(default=LEVEL, compare=False)
    unit: str = field(default="operation", compare=False)
    measure: str = field(default="lines", compare=False)  # "lines" counted, "us" of CPU
    factor: int = field(default=GROWTH, compare=False)  # the larger size over the smaller

    def __str__(self) -> str:
        if not (self.small or self.large):
            growing = f"growing at most x{self.limit} for x{self.factor} the size"
            return f"{self.measure} per {self.unit} {growing}"
        verdict = "level" if self.level else f"more than x{self.limit}: it grows with the size"
        shown = "{:.1f}" if self.measure == "lines" else "{:.2f}"
        return (
            f"{shown.format(self.small)} {self.measure} per {self.unit}, then "
            f"{shown.format(self.large)} at x{self.factor} the size: "
            f"x{self.large / max(self.small, 1e-9):.1f}, {verdict}"
        )


def cost_question(
    text: str,
    per_operation: Callable[[Module], Callable[[int], float]],
    n: int,
    *,
    limit: float = LEVEL,
    unit: str = "operation",
) -> Question:
    """Lines per operation at n and at 8n, as a question any implementation answers.

    `per_operation` is a module-level function (it is sent to the judged process).
    """
    return Question(text, partial(_ask_cost, per_operation, n, limit, unit), str)


def _ask_cost(
    per_operation: Callable[[Module], Callable[[int], float]],
    n: int,
    limit: float,
    unit: str,
    impl: Module,
) -> Growth:
    small, large, grew = growth(per_operation(impl), n)
    return Growth(grew <= limit, small, large, limit, unit)


def timed_question(
    text: str,
    prepare: Callable[[Module, int], Callable[[], object]],
    n: int,
    *,
    limit: float = TIMED_LEVEL,
    unit: str = "operation",
) -> Question:
    """CPU time per operation at n and at 64n; `prepare` is a module-level function."""
    return Question(text, partial(_ask_timed, prepare, n, limit, unit), str, costly=True)


def _ask_timed(
    prepare: Callable[[Module, int], Callable[[], object]],
    n: int,
    limit: float,
    unit: str,
    impl: Module,
) -> Growth:
    return timed(partial(prepare, impl), n, limit=limit, unit=unit)
