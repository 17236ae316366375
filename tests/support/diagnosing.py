"""The diagnosis exercise from the tests' side: questions and oracles for its three parts.

`diagnose` is asked a `Case` (heartbeats carrying progress, and a window);
`guard_mass_silence` a `Report` (a detector's report and the guard's
parameters); `PhiAccrual` a `Trace` (its parameters, then heartbeats and
questions at ticks of a fake clock).  Answers are read in a normal form, so
a candidate's own record types will do.  Phi is a float by nature: it is
compared with a stated tolerance (`Close`), everything else exactly.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import partial
from typing import Any, NamedTuple

from kata.impl import Module
from kata.outcomes import Question, ShapeError, brief, must_be_list, shown_list
from tests.support.detecting import Row, rows

RELATIVE, ABSOLUTE = 1e-9, 1e-12  # phi's tolerance: it is a float by nature


class Beat(NamedTuple):
    rank: int
    sent_at: int
    received_at: int
    progress: int


class HungRow(NamedTuple):
    rank: int
    progress: int
    since: int
    stalled: int

    def __repr__(self) -> str:
        return (
            f"Hung(rank={self.rank}, progress={self.progress}, since={self.since}, "
            f"stalled={self.stalled})"
        )


# --- diagnose ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Case:
    beats: tuple[Beat, ...]
    world_size: int
    start: int
    now: int
    timeout: int
    stall_timeout: int

    def __str__(self) -> str:
        beats = "[" + ", ".join(f"Beat{tuple(b)}" for b in self.beats) + "]"
        return (
            f"diagnose({beats}, world_size={self.world_size}, start={self.start}, "
            f"now={self.now}, timeout={self.timeout}, stall_timeout={self.stall_timeout})"
        )


Answer = tuple[tuple[Row, ...], tuple[HungRow, ...]]


def diagnose_question(case: Case, *, form: str = "list", keeps_input: bool = False) -> Question:
    """diagnose asked `case`, its beats passed as a list, an iterator or a generator; with
    `keeps_input`, an answer that changed the caller's list is malformed."""
    text = str(case)
    if form != "list":
        listed = text[len("diagnose(") :].split(", world_size=")[0]
        given = f"iter({listed})" if form == "iterator" else f"(b for b in {listed})"
        text = text.replace(listed, given, 1)
    return Question(text, partial(_ask_diagnose_question, case, form, keeps_input), show_diagnosis)


def _given(items: list[Any], form: str) -> Any:
    if form == "iterator":
        return iter(items)
    if form == "generator":
        return (item for item in items)
    return items


def _kept(items: list[Any], before: list[Any], result: Any) -> None:
    if items != before:
        raise ShapeError(
            "it changed the caller's list (now "
            f"{[tuple(i) for i in items]}): read the input, never modify it",
            brief(result),
        )


def _ask_diagnose_question(case: Case, form: str, keeps_input: bool, impl: Module) -> Answer:
    diagnose, beat = impl.require("diagnose"), impl.type_named("Beat")
    beats = [beat(*b) for b in case.beats]
    before = list(beats)
    result = diagnose(
        _given(beats, form),
        world_size=case.world_size,
        start=case.start,
        now=case.now,
        timeout=case.timeout,
        stall_timeout=case.stall_timeout,
    )
    if keeps_input:
        _kept(beats, before, result)
    try:
        stopped, hung = result.stopped, result.hung
        found = tuple(
            HungRow(h.rank, h.progress, h.since, h.stalled) for h in must_be_list(hung, "Hung")
        )
    except AttributeError as error:
        raise ShapeError(
            f"expected Diagnosis(stopped, hung) of Stopped and Hung records: {error}",
            brief(result),
        ) from None
    return rows(stopped), found


def show_diagnosis(answer: Answer) -> str:
    return f"Diagnosis(stopped={shown_list(answer[0])}, hung={shown_list(answer[1])})"


def diagnose_oracle(case: Case) -> Answer:
    """The contract, read literally, one rank at a time."""
    stopped, hung = [], []
    for rank in range(case.world_size):
        heard = [b for b in case.beats if b.rank == rank and b.received_at <= case.now]
        last = max((b.received_at for b in heard), default=None)
        silence = case.now - (case.start if last is None else last)
        if silence > case.timeout:
            stopped.append(Row(rank, last, silence))
            continue
        if not heard:
            continue
        progress = max(b.progress for b in heard)
        since = min(b.received_at for b in heard if b.progress == progress)
        if case.now - since > case.stall_timeout:
            hung.append(HungRow(rank, progress, since, case.now - since))
    stopped.sort(key=lambda s: (-s.silence, s.rank))
    hung.sort(key=lambda h: (h.progress, -h.stalled, h.rank))
    return tuple(stopped), tuple(hung)


# --- guard_mass_silence -------------------------------------------------------------------


@dataclass(frozen=True)
class Report:
    stopped: tuple[Row, ...]
    world_size: int
    start: int
    window: int
    fraction: Fraction | float

    def __str__(self) -> str:
        fraction = (
            f"Fraction('{self.fraction}')"
            if isinstance(self.fraction, Fraction)
            else repr(self.fraction)
        )
        return (
            f"guard_mass_silence({shown_list(self.stopped)}, world_size={self.world_size}, "
            f"start={self.start}, window={self.window}, fraction={fraction})"
        )


Fault = tuple[tuple[int, ...], tuple[int, int]]
Guarded = tuple[tuple[Row, ...], Fault | None]


def guard_question(report: Report, *, form: str = "list", keeps_input: bool = False) -> Question:
    """guard_mass_silence asked `report`, its rows as a list, an iterator or a generator."""
    text = str(report)
    if form != "list":
        listed = shown_list(report.stopped)
        given = f"iter({listed})" if form == "iterator" else f"(s for s in {listed})"
        text = text.replace(listed, given, 1)
    return Question(text, partial(_ask_guard_question, report, form, keeps_input), show_guarded)


def _ask_guard_question(report: Report, form: str, keeps_input: bool, impl: Module) -> Guarded:
    guard, stopped = impl.require("guard_mass_silence"), impl.type_named("Stopped")
    given = [stopped(*row) for row in report.stopped]
    before = list(given)
    result = guard(
        _given(given, form),
        world_size=report.world_size,
        start=report.start,
        window=report.window,
        fraction=report.fraction,
    )
    if keeps_input:
        _kept(given, before, result)
    try:
        kept, fault = rows(result.stopped), result.fault
        if fault is None:
            return kept, None
        ranks, span = tuple(fault.ranks), tuple(fault.fell_silent)
    except AttributeError as error:
        raise ShapeError(
            f"expected Guarded(stopped, fault), fault a CollectorFault(ranks, fell_silent) "
            f"or None: {error}",
            brief(result),
        ) from None
    if len(span) != 2:
        raise ShapeError("fell_silent is (earliest, latest)", brief(result))
    return kept, (ranks, (span[0], span[1]))


def show_guarded(answer: Guarded) -> str:
    kept, fault = answer
    shown = "None" if fault is None else f"CollectorFault(ranks={fault[0]}, fell_silent={fault[1]})"
    return f"Guarded(stopped={shown_list(kept)}, fault={shown})"


def guard_oracle(report: Report) -> Guarded:
    """Every window [t, t + window] that starts at an onset; the densest, the earliest."""

    def onset(row: Row) -> int:
        return report.start if row.last_heard is None else row.last_heard

    best: list[Row] = []
    for first in sorted(report.stopped, key=lambda r: (onset(r), r.rank)):
        group = [
            r for r in report.stopped if onset(first) <= onset(r) <= onset(first) + report.window
        ]
        if len(group) > len(best):
            best = group
    if len(best) < 2 or len(best) <= Fraction(report.fraction) * report.world_size:
        return report.stopped, None
    hidden = {r.rank for r in best}
    kept = tuple(r for r in report.stopped if r.rank not in hidden)
    onsets = [onset(r) for r in best]
    return kept, (tuple(sorted(hidden)), (min(onsets), max(onsets)))


# --- PhiAccrual ---------------------------------------------------------------------------


class Close:
    """A float compared within the stated tolerance: phi is a float by nature."""

    # Equal within a tolerance is not transitive enough to hash: unhashable, as a list is.
    __hash__ = None  # type: ignore[assignment]

    def __init__(self, value: float) -> None:
        self.value = value

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Close):
            return NotImplemented
        if math.isinf(self.value) or math.isinf(other.value):
            return self.value == other.value
        return math.isclose(self.value, other.value, rel_tol=RELATIVE, abs_tol=ABSOLUTE)

    def __repr__(self) -> str:
        return f"{self.value!r}"


@dataclass(frozen=True)
class Trace:
    """PhiAccrual(**settings) on a fake clock; each step at a tick: "beat", "phi", "available"."""

    steps: tuple[tuple[str, int], ...]
    settings: tuple[tuple[str, Any], ...] = ()

    def __str__(self) -> str:
        made = ", ".join(f"{k}={v!r}" for k, v in self.settings)
        calls = {"beat": "heartbeat()", "phi": "phi()", "available": "is_available()"}
        shown = "; ".join(f"at {t}: {calls[kind]}" for kind, t in self.steps)
        return f"d = PhiAccrual(clock=clock{', ' + made if made else ''}); {shown}"


def trace_question(trace: Trace) -> Question:

    return Question(
        str(trace), partial(_ask_trace_question, trace), lambda answers: shown_list(answers)
    )


def _ask_trace_question(trace: Trace, impl: Module) -> tuple[Any, ...]:
    clock = [0]
    detector = impl.require("PhiAccrual")(clock=lambda: clock[0], **dict(trace.settings))
    answers: list[Any] = []
    for kind, tick in trace.steps:
        clock[0] = tick
        if kind == "beat":
            detector.heartbeat()
        elif kind == "phi":
            value = detector.phi()
            if not isinstance(value, float | int) or isinstance(value, bool):
                raise ShapeError("phi() returns a float", brief(value))
            answers.append(Close(float(value)))
        else:
            available = detector.is_available()
            if not isinstance(available, bool):
                raise ShapeError("is_available() returns a bool", brief(available))
            answers.append(available)
    return tuple(answers)


def at_its_own_phi_question(trace: Trace, tick: int) -> Question:
    """The trace's heartbeats, then is_available() at `tick` of a detector whose threshold is
    the phi the candidate's own detector reads there: exactly at the threshold."""
    beats = tuple(step for step in trace.steps if step[0] == "beat")
    return Question(
        f"{Trace(beats, trace.settings)}; p = d.phi() at {tick}; then the same with "
        f"threshold=p: is_available() at {tick}",
        partial(_ask_at_its_own_phi, beats, trace.settings, tick),
        lambda available: f"is_available() is {available}",
    )


def _ask_at_its_own_phi(
    beats: tuple[tuple[str, int], ...],
    settings: tuple[tuple[str, Any], ...],
    tick: int,
    impl: Module,
) -> bool:
    def made(**extra: Any) -> Any:
        clock = [0]
        detector = impl.require("PhiAccrual")(clock=lambda: clock[0], **dict(settings), **extra)
        for _, at in beats:
            clock[0] = at
            detector.heartbeat()
        clock[0] = tick
        return detector

    phi = made().phi()
    if not isinstance(phi, float | int) or isinstance(phi, bool) or not phi > 0:
        raise ShapeError("phi() returns a float, here above 0", brief(phi))
    available = made(threshold=phi).is_available()
    if not isinstance(available, bool):
        raise ShapeError("is_available() returns a bool", brief(available))
    return available


def clock_reads_question(trace: Trace) -> Question:
    """The trace's calls, each with how many times it read the clock."""
    return Question(
        f"{trace}; the clock counts its reads",
        partial(_ask_clock_reads, trace),
        lambda reads: ", ".join(f"{kind}: {count}" for kind, count in reads),
    )


def _ask_clock_reads(trace: Trace, impl: Module) -> tuple[tuple[str, int], ...]:
    clock, reads = [0], [0]

    def read() -> int:
        reads[0] += 1
        return clock[0]

    detector = impl.require("PhiAccrual")(clock=read, **dict(trace.settings))
    calls = {"beat": detector.heartbeat, "phi": detector.phi, "available": detector.is_available}
    counted = []
    for kind, tick in trace.steps:
        clock[0], reads[0] = tick, 0
        calls[kind]()
        counted.append((kind, reads[0]))
    return tuple(counted)


def trace_oracle(trace: Trace) -> tuple[Any, ...]:
    """Akka's detector, step by step, its statistics in Fractions."""
    settings = {
        "threshold": 8.0,
        "max_sample_size": 1000,
        "min_std_deviation": 100,
        "acceptable_heartbeat_pause": 3000,
        "first_heartbeat_estimate": 1000,
    } | dict(trace.settings)
    history: list[int] = []
    last: int | None = None

    def phi(now: int) -> float:
        if last is None:
            return 0.0
        mean = Fraction(sum(history), len(history))
        variance = Fraction(sum(i * i for i in history), len(history)) - mean * mean
        std = max(math.sqrt(variance), settings["min_std_deviation"])
        y = float((now - last - mean - settings["acceptable_heartbeat_pause"]) / Fraction(std))
        z = y * (1.5976 + 0.070566 * y * y)
        if z > 0:
            return (z + math.log1p(math.exp(-z))) / math.log(10)
        return math.log1p(math.exp(z)) / math.log(10)

    answers: list[Any] = []
    for kind, tick in trace.steps:
        if kind == "beat":
            if last is None:
                estimate = settings["first_heartbeat_estimate"]
                history += [estimate - estimate // 4, estimate + estimate // 4]
            elif phi(tick) < settings["threshold"]:
                history.append(tick - last)
            history = history[-settings["max_sample_size"] :]
            last = tick
        elif kind == "phi":
            answers.append(Close(phi(tick)))
        else:
            answers.append(phi(tick) < settings["threshold"])
    return tuple(answers)


def beats_every(interval: int, count: int, *, first: int = 0) -> tuple[tuple[str, int], ...]:
    """`count` heartbeats, `interval` apart from `first`."""
    return tuple(("beat", first + i * interval) for i in range(count))


def phi_at(*ticks: int) -> tuple[tuple[str, int], ...]:
    return tuple(("phi", t) for t in ticks)


def available_at(*ticks: int) -> tuple[tuple[str, int], ...]:
    return tuple(("available", t) for t in ticks)


def trace(*parts: Sequence[tuple[str, int]], **settings: Any) -> Trace:
    return Trace(tuple(step for part in parts for step in part), tuple(settings.items()))


# --- PhiAccrual's refusals ------------------------------------------------------------------


def phi_construction(settings: dict[str, Any]) -> Question:
    shown = ", ".join(f"{k}={v!r}" for k, v in settings.items())
    return Question(f"PhiAccrual(clock=clock, {shown})", partial(_ask_phi_made, settings))


def _ask_phi_made(settings: dict[str, Any], impl: Module) -> str:
    impl.require("PhiAccrual")(clock=lambda: 0, **settings)
    return "made"


def phi_clock_back(calls: tuple[str, ...] = ("heartbeat", "heartbeat", "phi")) -> Question:
    """The clock reads 1000, 2000, then 1500, one reading a call: the last goes back."""
    shown = ", ".join(f"{call}()" for call in calls)
    return Question(f"clock reads 1000, 2000, 1500: {shown}", partial(_ask_phi_clock_back, calls))


def _ask_phi_clock_back(calls: tuple[str, ...], impl: Module) -> str:
    ticks = iter([1_000, 2_000, 1_500])
    detector = impl.require("PhiAccrual")(clock=lambda: next(ticks))
    for call in calls:
        getattr(detector, call)()
    return "no error"
