"""Cost as evidence: work counted, never timed, so the verdict is the same on any machine.

`work(thunk)` counts the Python lines executed while `thunk` runs (a line
event of the tracer).  Work a candidate hands to C (``list.remove``,
``sorted``, ``min``) is made visible by feeding it `Counted` integers, whose
comparisons are Python methods: every comparison C makes of them is a line.
A cost check runs one workload at size n and at 8n and compares the work per
operation: constant work stays about level, O(n) work grows about 8-fold.
"""

from __future__ import annotations

import gc
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from types import FrameType
from typing import Any

from tests.support.impl import Module
from tests.support.outcomes import Question

TESTS = str(Path(__file__).resolve().parents[1])
GROWTH = 8  # the larger size over the smaller
LEVEL = 2.0  # the most work per operation may grow, n -> 8n, and still count as constant


class Counted(int):
    """An int whose comparisons run Python code, so C code comparing it is counted."""

    __slots__ = ()

    def __eq__(self, other: object) -> bool:
        return int(self) == other

    def __ne__(self, other: object) -> bool:
        return int(self) != other

    def __lt__(self, other: int) -> bool:
        return int(self) < other

    def __le__(self, other: int) -> bool:
        return int(self) <= other

    def __gt__(self, other: int) -> bool:
        return int(self) > other

    def __ge__(self, other: int) -> bool:
        return int(self) >= other

    __hash__ = int.__hash__


def work(thunk: Callable[[], Any]) -> int:
    """The Python lines executed while `thunk()` runs, not counting the tests' own.

    The workload's loop and the harness's wrappers are the same at any size and
    would only blur the comparison; `Counted`'s comparisons are counted.
    """
    count = 0

    def trace(frame: FrameType, event: str, arg: object) -> Callable[..., Any] | None:
        nonlocal count
        name = frame.f_code.co_filename
        if name.startswith(TESTS) and name != __file__:
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


@dataclass(frozen=True)
class Growth:
    """A cost check's answer: level or not, with the work measured (not compared)."""

    level: bool
    small: float = field(default=0.0, compare=False)
    large: float = field(default=0.0, compare=False)
    limit: float = field(default=LEVEL, compare=False)
    unit: str = field(default="operation", compare=False)

    def __str__(self) -> str:
        if not (self.small or self.large):
            return f"work per {self.unit} growing at most x{self.limit} for x{GROWTH} the size"
        verdict = "level" if self.level else f"more than x{self.limit}: it grows with the size"
        return (
            f"{self.small:.1f} lines per {self.unit}, then {self.large:.1f} at x{GROWTH} the "
            f"size: x{self.large / max(self.small, 1.0):.1f}, {verdict}"
        )


def cost_question(
    text: str,
    per_operation: Callable[[Module], Callable[[int], float]],
    n: int,
    *,
    limit: float = LEVEL,
    unit: str = "operation",
) -> Question:
    """The cost of a workload at n and at 8n, as a question any implementation answers.

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
