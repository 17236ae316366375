"""The sweep exercise from the tests' side: brute-force oracles, strategies, messages.

Every oracle enumerates unit ticks: tick t is busy on a GPU iff some interval
on it has start <= t < end.  That is the half-open convention read literally,
with no sweep, no sort and no cleverness.  Results are compared by their
fields, so a candidate's own NamedTuples or dataclasses will do.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable, Sequence
from fractions import Fraction
from typing import Any, NamedTuple

import pytest
from hypothesis import strategies as st


class Span(NamedTuple):
    """A busy interval as the tests describe it: GPU, job, [start, end)."""

    gpu: int
    job: str
    start: int
    end: int


GPUS = 4
JOBS = ("a", "b", "c", "d", "e")


# --- oracles ---------------------------------------------------------------


def busy_gpus_at(spans: Iterable[Span], tick: int) -> int:
    return len({s.gpu for s in spans if s.start <= tick < s.end})


def runs(ticks: Iterable[int]) -> list[tuple[int, int]]:
    """Maximal runs of consecutive ticks, as half-open windows."""
    windows: list[tuple[int, int]] = []
    for tick in ticks:
        if windows and windows[-1][1] == tick:
            windows[-1] = (windows[-1][0], tick + 1)
        else:
            windows.append((tick, tick + 1))
    return windows


def underused_oracle(
    spans: Sequence[Span], horizon: tuple[int, int], below: int
) -> list[tuple[int, int]]:
    return runs(t for t in range(*horizon) if busy_gpus_at(spans, t) < below)


def utilization_oracle(
    spans: Sequence[Span], gpus: int, horizon: tuple[int, int], bucket: int
) -> list[Fraction]:
    shares = []
    for left in range(horizon[0], horizon[1], bucket):
        right = min(left + bucket, horizon[1])
        used = sum(busy_gpus_at(spans, t) for t in range(left, right))
        shares.append(Fraction(used, gpus * (right - left)))
    return shares


def overlaps_oracle(spans: Sequence[Span]) -> list[tuple[str, str]]:
    return sorted(
        {
            (min(x.job, y.job), max(x.job, y.job))
            for x in spans
            for y in spans
            if x.job != y.job and max(x.start, y.start) < min(x.end, y.end)
        }
    )


def peak_oracle(spans: Sequence[Span], horizon: tuple[int, int]) -> tuple[int, tuple[int, int]]:
    counts = {t: busy_gpus_at(spans, t) for t in range(*horizon)}
    if not counts:
        return 0, horizon
    top = max(counts.values())
    return top, runs(t for t, c in counts.items() if c == top)[0]


# --- strategies --------------------------------------------------------------

spans = st.builds(
    lambda gpu, job, start, length: Span(gpu, job, start, start + length),
    st.integers(0, GPUS - 1),
    st.sampled_from(JOBS),
    st.integers(0, 20),
    st.integers(0, 8),  # zero-length intervals included
)
logs = st.lists(spans, max_size=10)
nonempty_logs = st.lists(spans, min_size=1, max_size=10)
horizons = st.builds(
    lambda start, length: (start, start + length), st.integers(0, 10), st.integers(0, 24)
)


# --- calling the candidate -------------------------------------------------------


class Sweeper:
    """The implementation's sweep functions, called with the tests' spans."""

    def __init__(self, function: Any, busy: Any, window: Any) -> None:
        self.function, self.busy, self.window = function, busy, window

    def raw(self, spans: Sequence[Span], **kwargs: Any) -> Any:
        """Call the function, letting whatever it raises through."""
        converted = {k: self.window(*v) if k == "horizon" else v for k, v in kwargs.items()}
        return self.function([self.busy(*s) for s in spans], **converted)

    def __call__(self, spans: Sequence[Span], **kwargs: Any) -> Any:
        """The function's answer; a valid question that raises fails the test."""
        try:
            return self.raw(spans, **kwargs)
        except NotImplementedError:
            raise  # the starter, untouched: the harness reports it as not implemented yet
        except Exception as error:
            fail(
                self.describe(spans, kwargs),
                f"raised {type(error).__name__}: {error}",
                "a result",
                "this input is valid and must be answered.",
            )

    def describe(self, spans: Sequence[Span], kwargs: dict[str, Any]) -> str:
        arguments = [f"[{', '.join(f'Busy{tuple(s)}' for s in spans)}]"]
        arguments += [
            f"{k}={'Window' + str(tuple(v)) if k == 'horizon' else repr(v)}"
            for k, v in kwargs.items()
        ]
        return f"{getattr(self.function, '__name__', 'function')}({', '.join(arguments)})"


def fail(call: str, got: str, expected: str, mistake: str) -> None:
    pytest.fail(
        f"{call}\n  expected: {expected}\n       got: {got}\n  Likely mistake: {mistake}",
        pytrace=False,
    )


def as_windows(result: Any) -> list[tuple[int, int]]:
    return [(w.start, w.end) if hasattr(w, "start") else tuple(w) for w in result]


def as_peak(result: Any) -> tuple[int, tuple[int, int]]:
    busy, window = (result.busy, result.window) if hasattr(result, "busy") else result
    return busy, as_windows([window])[0]


def as_spans(result: Any) -> list[Span]:
    return sorted(Span(b.gpu, b.job, b.start, b.end) for b in result)


HALF_OPEN = (
    "intervals are half-open [start, end): busy at start, free at end; where one ends "
    "and another starts at the same time, process the end first, so touching intervals "
    "neither overlap nor leave a gap."
)


def closed_interval_mistake(
    spans: Sequence[Span], want: list[tuple[int, int]], got: list[tuple[int, int]]
) -> str:
    """The message for windows that start one tick late after an interval's end."""
    ends = {s.end for s in spans if s.start < s.end}
    late = [(a, b) for a, b in want if a in ends and (a + 1, b) in got]
    return f"windows {late} start one tick late: " + HALF_OPEN if late else ""


def touching_pairs(spans: Sequence[Span]) -> set[tuple[str, str]]:
    """Job pairs with intervals that touch (one ends where the other starts)."""
    return {
        (min(x.job, y.job), max(x.job, y.job))
        for x in spans
        for y in spans
        if x.job != y.job and x.start < x.end and y.start < y.end and x.end == y.start
    }


def windows_mistake(
    spans: Sequence[Span], want: list[tuple[int, int]], got: list[tuple[int, int]]
) -> str:
    """The classic mistake behind a wrong list of windows."""
    if any(start >= end for start, end in got):
        return "an empty window was reported: windows are nonempty [start, end)."
    if any(a[1] == b[0] for a, b in itertools.pairwise(got)):
        return "adjacent windows were not merged: report maximal windows."
    if any(s.start == s.end for s in spans):
        return (
            "a zero-length interval [t, t) is busy at no instant: it must neither split a "
            "window nor count as busy."
        )
    touching = {s.end for s in spans} & {s.start for s in spans}
    if touching:
        return (
            "intervals are half-open [start, end): at a time where one ends and another "
            "starts, process ends before starts; touching intervals leave no gap and do "
            "not overlap."
        )
    return "windows are the maximal runs of time within the horizon with the condition."


def check_windows(
    sweeper: Callable[..., Any],
    spans: Sequence[Span],
    want: list[tuple[int, int]],
    hint: str = "",
    **kwargs: Any,
) -> None:
    got = as_windows(sweeper(spans, **kwargs))
    if got != want:
        assert isinstance(sweeper, Sweeper)
        fail(
            sweeper.describe(spans, kwargs),
            str(got),
            str(want),
            closed_interval_mistake(spans, want, got) or hint or windows_mistake(spans, want, got),
        )
