"""The sweep exercise from the tests' side: questions, brute-force oracles, strategies.

Every oracle enumerates unit ticks: tick t is busy on a GPU iff some interval
on it has start <= t < end.  That is the half-open convention read literally,
with no sweep, no sort and no cleverness.  Answers are read in a normal form
(tuples compared by field), so a candidate's own NamedTuples or dataclasses
will do; the containers must be the contract's (lists; exact numbers).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from fractions import Fraction
from functools import partial
from typing import Any, NamedTuple

from kata.checks import answer, expect, expect_that, expect_value_error
from kata.cost import work
from kata.impl import Implementation, Module
from kata.outcomes import Question, ShapeError, brief, must_be_list, shown_list


class Span(NamedTuple):
    """A busy interval as the tests describe it: GPU, job, [start, end)."""

    gpu: int
    job: str
    start: int
    end: int


class Ev(NamedTuple):
    """An event as the tests describe it."""

    time: int
    gpu: int
    job: str
    kind: str


GPUS = 4
JOBS = ("a", "b", "c", "d", "e")
UNTIL = 100

HALF_OPEN = (
    "intervals are half-open [start, end): busy at start, free at end; where one ends and "
    "another starts at the same time, the end comes first, so touching intervals neither "
    "overlap nor leave a gap."
)


# --- oracles ---------------------------------------------------------------------


def busy_gpus_at(spans: Iterable[Span], tick: int) -> int:
    return len({s.gpu for s in spans if s.start <= tick < s.end})


def runs(ticks: Iterable[int]) -> tuple[tuple[int, int], ...]:
    """Maximal runs of consecutive ticks, as half-open windows."""
    windows: list[tuple[int, int]] = []
    for tick in ticks:
        if windows and windows[-1][1] == tick:
            windows[-1] = (windows[-1][0], tick + 1)
        else:
            windows.append((tick, tick + 1))
    return tuple(windows)


def underused_oracle(
    spans: Sequence[Span], horizon: tuple[int, int], below: int
) -> tuple[tuple[int, int], ...]:
    return runs(t for t in range(*horizon) if busy_gpus_at(spans, t) < below)


def utilization_oracle(
    spans: Sequence[Span], gpus: int, horizon: tuple[int, int], bucket: int
) -> tuple[Fraction, ...]:
    shares = []
    for left in range(horizon[0], horizon[1], bucket):
        right = min(left + bucket, horizon[1])
        used = sum(busy_gpus_at(spans, t) for t in range(left, right))
        shares.append(Fraction(used, gpus * (right - left)))
    return tuple(shares)


def overlaps_oracle(spans: Sequence[Span]) -> tuple[tuple[str, str], ...]:
    return tuple(
        sorted(
            {
                (min(x.job, y.job), max(x.job, y.job))
                for x in spans
                for y in spans
                if x.job != y.job and max(x.start, y.start) < min(x.end, y.end)
            }
        )
    )


def peak_oracle(spans: Sequence[Span], horizon: tuple[int, int]) -> tuple[int, tuple[int, int]]:
    counts = {t: busy_gpus_at(spans, t) for t in range(*horizon)}
    if not counts:
        return 0, horizon
    top = max(counts.values())
    return top, runs(t for t, c in counts.items() if c == top)[0]


def intervals_oracle(events: Sequence[Ev], until: int) -> tuple[Span, ...]:
    """Pair each start with the next stop of its (GPU, job), in time order, ties in log order."""
    opened: dict[tuple[int, str], int] = {}
    spans = []
    for event in sorted(events, key=lambda e: e.time):
        key = (event.gpu, event.job)
        if event.kind == "start":
            opened[key] = event.time
        else:
            spans.append(Span(event.gpu, event.job, opened.pop(key), event.time))
    spans += [Span(gpu, job, start, until) for (gpu, job), start in opened.items()]
    return tuple(sorted(spans))


# --- normal forms ------------------------------------------------------------------


def _windows(result: Any) -> tuple[tuple[int, int], ...]:
    try:
        return tuple((w.start, w.end) for w in must_be_list(result, "Window"))
    except AttributeError as error:
        raise ShapeError(f"expected Window(start, end) records: {error}", brief(result)) from None


def _shares(result: Any) -> tuple[Fraction, ...]:
    shares = must_be_list(result, "Fraction")
    inexact = [x for x in shares if isinstance(x, bool) or not isinstance(x, int | Fraction)]
    if inexact:
        raise ShapeError(
            f"expected exact shares (Fraction), got {type(inexact[0]).__name__} "
            f"{inexact[0]!r}: a ratio of integers is exact; never round it",
            brief(result),
        )
    return tuple(Fraction(x) for x in shares)


def _pairs(result: Any) -> tuple[tuple[str, str], ...]:
    pairs = must_be_list(result, "(job, job) pairs")
    if any(not isinstance(p, tuple | list) or len(p) != 2 for p in pairs):
        raise ShapeError("expected (job, job) pairs", brief(result))
    return tuple((a, b) for a, b in pairs)


def _peak(result: Any) -> tuple[int, tuple[int, int]]:
    try:
        return result.busy, (result.window.start, result.window.end)
    except AttributeError as error:
        raise ShapeError(f"expected Peak(busy, window): {error}", brief(result)) from None


def _spans(result: Any) -> tuple[Span, ...]:
    try:
        found = must_be_list(result, "Busy")
        return tuple(sorted(Span(b.gpu, b.job, b.start, b.end) for b in found))
    except AttributeError as error:
        raise ShapeError(
            f"expected Busy(gpu, job, start, end) records: {error}", brief(result)
        ) from None


NORMAL = {
    "idle_windows": _windows,
    "underused_windows": _windows,
    "utilization": _shares,
    "overlapping_jobs": _pairs,
    "peak_concurrency": _peak,
}


def _show(name: str) -> Any:
    if name in ("idle_windows", "underused_windows"):
        return lambda ws: shown_list(ws, lambda w: f"Window{w}")
    if name == "utilization":
        return lambda shares: shown_list(shares, str)
    if name == "peak_concurrency":
        return lambda peak: f"Peak(busy={peak[0]}, window=Window{peak[1]})"
    if name == "intervals_from_events":
        return lambda spans: shown_list(spans, lambda s: f"Busy{tuple(s)}")
    return lambda pairs: shown_list(pairs)


# --- questions ----------------------------------------------------------------------


def query(name: str, spans: Sequence[Span], *, form: str = "list", **kwargs: Any) -> Question:
    """`name` asked of `spans` (as the candidate's Busy), with keyword arguments."""
    listed = ", ".join(f"Busy{tuple(s)}" for s in spans)
    given = {"list": f"[{listed}]", "iterator": f"iter([{listed}])"}[form]
    shown = [f"{k}=Window{tuple(v)}" if k == "horizon" else f"{k}={v!r}" for k, v in kwargs.items()]
    text = f"{name}({', '.join([given, *shown])})"

    return Question(text, partial(_ask_query, name, tuple(spans), form, kwargs), _show(name))


def _ask_query(
    name: str, spans: Sequence[Span], form: str, kwargs: dict[str, Any], impl: Module
) -> Any:
    function = impl.require(name)
    busy, window = impl.type_named("Busy"), impl.type_named("Window")
    intervals = [busy(*s) for s in spans]
    arguments = {k: window(*v) if k == "horizon" else v for k, v in kwargs.items()}
    return NORMAL[name](function(iter(intervals) if form == "iterator" else intervals, **arguments))


def pairing(events: Sequence[Ev], *, until: int = UNTIL, form: str = "list") -> Question:
    """intervals_from_events asked of `events`."""
    listed = ", ".join(f"Event{tuple(e)}" for e in events)
    given = {"list": f"[{listed}]", "iterator": f"iter([{listed}])"}[form]

    return Question(
        f"intervals_from_events({given}, until={until})",
        partial(_ask_pairing, tuple(events), until, form),
        _show("intervals_from_events"),
    )


def _ask_pairing(events: Sequence[Ev], until: int, form: str, impl: Module) -> tuple[Span, ...]:
    function, event = impl.require("intervals_from_events"), impl.type_named("Event")
    log = [event(*e) for e in events]
    return _spans(function(iter(log) if form == "iterator" else log, until=until))


def oracle(name: str, spans: Sequence[Span], **kwargs: Any) -> Any:
    if name == "idle_windows":
        return underused_oracle(spans, kwargs["horizon"], 1)
    if name == "underused_windows":
        return underused_oracle(spans, kwargs["horizon"], kwargs["below"])
    if name == "utilization":
        return utilization_oracle(spans, kwargs["gpus"], kwargs["horizon"], kwargs["bucket"])
    if name == "overlapping_jobs":
        return overlaps_oracle(spans)
    return peak_oracle(spans, kwargs["horizon"])


class Sweep:
    """The implementation's sweep functions, asked with the tests' spans."""

    def __init__(self, impl: Implementation) -> None:
        self.impl = impl

    def check(
        self,
        name: str,
        spans: Sequence[Span],
        want: Any = None,
        *,
        rule: str,
        form: str = "list",
        **kwargs: Any,
    ) -> Any:
        """Fail unless `name` answers `want` (default: the tick-by-tick oracle's)."""
        expected = oracle(name, spans, **kwargs) if want is None else want
        return expect(self.impl, query(name, spans, form=form, **kwargs), expected, rule=rule)

    def answer(self, name: str, spans: Sequence[Span], **kwargs: Any) -> Any:
        return answer(self.impl, query(name, spans, **kwargs))

    def holds(
        self, questions: Sequence[Question], holds: Any, *, claim: str, rule: str
    ) -> list[Any]:
        return expect_that(self.impl, questions, holds, claim=claim, rule=rule)

    def refuses(self, question: Question, problem: str) -> None:
        expect_value_error(self.impl, question, problem)

    def pairs(
        self, events: Sequence[Ev], want: Sequence[Span] | None = None, *, rule: str, **kw: Any
    ) -> Any:
        """Fail unless intervals_from_events pairs `events` into `want` (default: the oracle's)."""
        until = kw.get("until", UNTIL)
        expected = tuple(sorted(want)) if want is not None else intervals_oracle(events, until)
        return expect(self.impl, pairing(events, **kw), expected, rule=rule)


# --- the cost of overlaps ---------------------------------------------------------------


def per_interval(impl: Module) -> Callable[[int], float]:
    overlapping_jobs, busy = impl.require("overlapping_jobs"), impl.type_named("Busy")

    def measure(count: int) -> float:
        # A staircase: each interval overlaps the next only.
        log = [busy(i % 8, f"job{i}", 3 * i, 3 * i + 5) for i in range(count)]
        return work(lambda: overlapping_jobs(log)) / count

    return measure
