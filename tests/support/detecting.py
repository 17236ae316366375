"""The detector exercise from the tests' side: questions, oracles, what differs.

Three contracts are asked about: `detect` (a `Call`), `misses_for_budget`
(a `Budget`) and `HeartbeatMonitor` (a `Session`: construction, then steps
on a fake clock).  Answers are read in a normal form, `Row`s compared by
field, so a candidate's own NamedTuples or dataclasses will do; the
container must be what the contract says (a list, an int).
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache, partial
from typing import Any, NamedTuple

from kata.checks import answer, expect, expect_each, expect_that, expect_value_error
from kata.cost import GROWTH, LEVEL, TIMED_GROWTH, Growth, timed_question, work
from kata.impl import Handle, Implementation, Module
from kata.outcomes import (
    Question,
    ShapeError,
    brief,
    must_be_list,
    shown_list,
    where_raised,
)


class Beat(NamedTuple):
    """A heartbeat as the tests describe it; passed to `detect` as the candidate's type."""

    rank: int
    sent_at: int
    received_at: int


class Row(NamedTuple):
    """One reported rank, as the tests compare it."""

    rank: int
    last_heard: int | None
    silence: int

    def __repr__(self) -> str:
        return f"Stopped(rank={self.rank}, last_heard={self.last_heard}, silence={self.silence})"


def rows(result: Any) -> tuple[Row, ...]:
    """A list of Stopped-like records as Rows; ShapeError if it is not one."""
    try:
        return tuple(Row(s.rank, s.last_heard, s.silence) for s in must_be_list(result, "Stopped"))
    except AttributeError as error:
        raise ShapeError(
            f"expected Stopped(rank, last_heard, silence) records: {error}", brief(result)
        ) from None


def show_rows(answer: Sequence[Row]) -> str:
    return shown_list(answer)


# --- detect ---------------------------------------------------------------------


@dataclass(frozen=True)
class Call:
    """One call of detect: the question a test asks."""

    heartbeats: tuple[Beat, ...]
    world_size: int
    start: int
    now: int
    timeout: int

    def window(self) -> tuple[int, int, int, int]:
        return self.world_size, self.start, self.now, self.timeout

    def text(self, form: str = "list") -> str:
        beats = _listed(self.heartbeats)
        if form == "iterator":
            beats = f"iter({beats})"
        elif form == "generator":
            beats = f"(beat for beat in {beats})"
        return (
            f"detect({beats}, world_size={self.world_size}, start={self.start}, "
            f"now={self.now}, timeout={self.timeout})"
        )

    def __str__(self) -> str:
        return self.text()


def detect_question(call: Call, *, form: str = "list", keeps_input: bool = False) -> Question:
    """detect asked `call`, its heartbeats passed as a list, an iterator or a generator.

    With `keeps_input`, an answer that reorders or changes the caller's list is
    malformed: detect reads its input and never modifies it.
    """

    return Question(call.text(form), partial(_ask_detect, call, form, keeps_input), show_rows)


def _ask_detect(call: Call, form: str, keeps_input: bool, impl: Module) -> tuple[Row, ...]:
    detect, heartbeat = impl.require("detect"), impl.type_named("Heartbeat")
    beats = [heartbeat(*b) for b in call.heartbeats]
    before = list(beats)
    given: Iterable[Any] = beats
    if form == "iterator":
        given = iter(beats)
    elif form == "generator":
        given = (beat for beat in beats)
    result = detect(
        given, world_size=call.world_size, start=call.start, now=call.now, timeout=call.timeout
    )
    if keeps_input and beats != before:
        raise ShapeError(
            "it changed the caller's list of heartbeats (now "
            f"{[tuple(b) for b in beats]}): read the input, never modify it",
            shown_list(rows(result)) if isinstance(result, list) else brief(result),
        )
    return rows(result)


@lru_cache(maxsize=4096)
def _listed(heartbeats: tuple[Beat, ...]) -> str:
    """A log as a candidate would type it (the exhaustive tests ask one log many times)."""
    return "[" + ", ".join(f"Heartbeat{tuple(b)}" for b in heartbeats) + "]"


def oracle(call: Call) -> tuple[Row, ...]:
    """The contract, read literally: one rank at a time, no cleverness."""
    found = []
    for rank, last_heard in enumerate(_last_heard(call.heartbeats, call.world_size, call.now)):
        silence = call.now - (call.start if last_heard is None else last_heard)
        if silence > call.timeout:
            found.append(Row(rank, last_heard, silence))
    return tuple(sorted(found, key=lambda row: (-row.silence, row.rank)))


@lru_cache(maxsize=4096)
def _last_heard(heartbeats: tuple[Beat, ...], world_size: int, now: int) -> list[int | None]:
    """Each rank's greatest received_at at or before now, None if none (kept: the
    exhaustive tests ask one log at one now with several timeouts)."""
    latest: list[int | None] = []
    for rank in range(world_size):
        heard = [b.received_at for b in heartbeats if b.rank == rank and b.received_at <= now]
        latest.append(max(heard) if heard else None)
    return latest


def difference(want: Sequence[Row], got: Sequence[Row]) -> str:
    """What differs between two reports, in the contract's words."""
    wanted, given = {r.rank: r for r in want}, {r.rank: r for r in got}
    parts = []
    repeated = sorted({r.rank for r in got if [g.rank for g in got].count(r.rank) > 1})
    if repeated:
        parts.append(f"ranks {repeated} reported more than once")
    extra = [given[r] for r in given if r not in wanted]
    if extra:
        parts.append(
            "reported though not silent for more than the timeout: "
            + ", ".join(f"rank {r.rank} (silence {r.silence})" for r in extra)
        )
    missing = [wanted[r] for r in wanted if r not in given]
    if missing:
        parts.append(
            "not reported though silent for more than the timeout: "
            + ", ".join(f"rank {r.rank} (silence {r.silence})" for r in missing)
        )
    for rank in sorted(set(wanted) & set(given)):
        w, g = wanted[rank], given[rank]
        if w != g:
            parts.append(
                f"rank {rank} has last_heard={g.last_heard}, silence={g.silence} "
                f"(expected {w.last_heard}, {w.silence})"
            )
    if not parts:
        parts.append("the right rows in another order (silence descending, ties by rank)")
    return "; ".join(parts) + "."


def beats(rank_times: Iterable[tuple[int, int]]) -> tuple[Beat, ...]:
    """Heartbeats from (rank, received_at) pairs, each sent (by its own clock) when received."""
    return tuple(Beat(rank, received, received) for rank, received in rank_times)


class Detector:
    """The implementation's detect, asked a `Call` at a time."""

    def __init__(self, impl: Implementation) -> None:
        self.impl = impl

    def answer(self, call: Call, *, form: str = "list") -> tuple[Row, ...]:
        """What detect answers; fails the test if it raises or returns junk."""
        result: tuple[Row, ...] = answer(self.impl, detect_question(call, form=form))
        return result

    def check(
        self,
        call: Call,
        expected: Sequence[Row] | None = None,
        *,
        rule: str,
        form: str = "list",
        keeps_input: bool = False,
    ) -> tuple[Row, ...]:
        """Fail unless the answer is `expected` (default: the oracle's)."""
        want = oracle(call) if expected is None else tuple(expected)
        question = detect_question(call, form=form, keeps_input=keeps_input)
        result: tuple[Row, ...] = expect(self.impl, question, want, rule=rule, symptom=difference)
        return result

    def check_each(self, calls: Iterable[Call], *, rule: str) -> None:
        """`check` of many calls against the oracle, sent together: fails at the first wrong."""
        cases = ((detect_question(call), oracle(call)) for call in calls)
        expect_each(self.impl, cases, rule=rule, symptom=difference)

    def holds(
        self, calls: Sequence[Call], holds: Callable[..., bool], *, claim: str, rule: str
    ) -> list[tuple[Row, ...]]:
        """Fail unless detect answers every call and ``holds(*answers)``."""
        questions = [detect_question(call) for call in calls]
        return expect_that(self.impl, questions, holds, claim=claim, rule=rule)

    def refuses(self, call: Call, problem: str) -> None:
        """Fail unless detect raises ValueError for `call`."""
        expect_value_error(self.impl, detect_question(call), problem)


# --- misses_for_budget --------------------------------------------------------------


@dataclass(frozen=True)
class Budget:
    """One call of misses_for_budget."""

    miss_probability: Fraction | float
    opportunities: int
    budget: Fraction | float
    shown_opportunities: str = ""  # 2**67 + 1 reads better than its digits

    def __str__(self) -> str:
        n = self.shown_opportunities or str(self.opportunities)
        return (
            f"misses_for_budget(miss_probability={self.miss_probability!r}, opportunities={n}, "
            f"budget={self.budget!r})"
        )


def budget_question(call: Budget) -> Question:
    return Question(str(call), partial(_ask_budget, call), str)


def _ask_budget(call: Budget, impl: Module) -> int:
    got = impl.require("misses_for_budget")(
        miss_probability=call.miss_probability,
        opportunities=call.opportunities,
        budget=call.budget,
    )
    if type(got) is not int:
        raise ShapeError(f"expected an int, got a {type(got).__name__}", brief(got))
    return got


def smallest_k(p: Fraction, n: int, budget: Fraction) -> int:
    """The definition, k = min {k >= 1 : n * p**k <= budget}, fast at any size.

    A float estimate of where n * p**k crosses the budget, then exact steps
    from it (each one exact power of a Fraction), so k in the millions costs
    a few big-integer powers, never millions of multiplications.
    """
    from math import log

    def within(k: int) -> bool:
        return n * p**k <= budget

    if p == 0 or n <= budget:
        return 1
    # n > budget > 0 and 0 < p < 1 here; logs of the integers, so nothing underflows.
    log_ratio = log(budget.numerator) - log(budget.denominator) - log(n)
    estimate = max(1, int(log_ratio / (log(p.numerator) - log(p.denominator))))
    k = estimate
    while k > 1 and within(k - 1):
        k -= 1
    while not within(k):
        k += 1
    return k


# --- HeartbeatMonitor ----------------------------------------------------------------

BOOT = 7_000_000_000  # the collector's clock when a monitor starts: not 0


class FakeClock:
    """A clock that moves only when a test moves it, and counts its reads."""

    def __init__(self, now: int = BOOT) -> None:
        self.now, self.reads = now, 0

    def __call__(self) -> int:
        self.reads += 1
        return self.now


Step = tuple[str, int]  # ("advance", ticks), ("back", ticks), ("beat", rank), ("stopped", 0)


def step_line(kind: str, value: int) -> str:
    """A step of a monitor's session as the test's code would read."""
    return {
        "advance": f"clock.now += {value}",
        "back": f"clock.now -= {value}  # the clock goes back",
        "beat": f"monitor.beat({value})",
        "stopped": "monitor.stopped()",
    }[kind]


@dataclass(frozen=True)
class Session:
    """A monitor's life: constructed at BOOT, then steps on its fake clock.

    Asked of an implementation, the answer is each ``stopped()``'s report in
    turn (with `count_reads`, each with the clock reads it made).  A step that
    raises before the last is malformed: only the last may be the error.
    """

    world_size: int
    timeout: int
    steps: tuple[Step, ...] = ()
    count_reads: bool = False

    def then(self, *steps: Step) -> Session:
        return Session(self.world_size, self.timeout, self.steps + steps, self.count_reads)

    def lines(self) -> Iterator[str]:
        yield f"clock = FakeClock({BOOT})"
        yield f"monitor = HeartbeatMonitor({self.world_size}, {self.timeout}, clock=clock)"
        for kind, value in self.steps:
            yield step_line(kind, value)

    def __str__(self) -> str:
        return "; ".join(self.lines())

    def history(self) -> Iterator[tuple[int, list[tuple[int, int]]]]:
        """The oracle's view: for each stopped(), the clock then and every beat so far."""
        now, heard = BOOT, []
        for kind, value in self.steps:
            if kind == "advance":
                now += value
            elif kind == "back":
                now -= value
            elif kind == "beat":
                heard.append((value, now))
            elif kind == "stopped":
                yield now, list(heard)

    def final(self) -> tuple[Row, ...]:
        """What detect says of every beat so far, now (at the end of the steps)."""
        now, heard = BOOT, []
        for kind, value in self.steps:
            now += value if kind == "advance" else -value if kind == "back" else 0
            if kind == "beat":
                heard.append((value, now))
        return oracle(Call(beats(heard), self.world_size, BOOT, now, self.timeout))

    def expected(self) -> tuple[Any, ...]:
        """What detect says of the same beats at each stopped()."""
        reports = []
        for now, heard in self.history():
            call = Call(beats(heard), self.world_size, BOOT, now, self.timeout)
            reports.append((oracle(call), 1) if self.count_reads else oracle(call))
        return tuple(reports)


def refused_reading_question(call: str) -> Question:
    """A reading refused for going back is not kept: after 10, 5 (refused), 7 is still
    earlier than the last reading accepted, and refused too.  `call`: beat or stopped."""
    shown = "monitor.beat(0)" if call == "beat" else "monitor.stopped()"
    text = (
        "monitor = HeartbeatMonitor(2, 5, clock=clock)\n"
        f"clock.now += 10; {shown}\nclock.now -= 5; {shown}  # refused: the clock went back\n"
        f"clock.now += 2; {shown}  # 3 ticks behind the last reading accepted"
    )
    return Question(text, partial(_ask_refused_reading, call))


def _ask_refused_reading(call: str, impl: Module) -> tuple[str, ...]:
    clock = FakeClock()
    monitor = impl.require("HeartbeatMonitor")(2, 5, clock=clock)
    act = (lambda: monitor.beat(0)) if call == "beat" else monitor.stopped
    said = []
    for move in (10, -5, 2):
        clock.now += move
        try:
            act()
            said.append("accepted")
        except ValueError:
            said.append("ValueError")
    return tuple(said)


def refused_rank_question() -> Question:
    """A beat refused for its rank reads no clock that counts: after a check at 10, a beat
    of rank 2 (in a world of 2) at 20 is refused, and a check at 15 is still on time."""
    text = (
        "monitor = HeartbeatMonitor(2, 5, clock=clock)\n"
        "clock.now += 10; monitor.stopped()\n"
        "clock.now += 10; monitor.beat(2)  # refused: no rank 2 in a world of 2\n"
        "clock.now -= 5; monitor.stopped()  # later than the last reading accepted"
    )
    return Question(text, _ask_refused_rank)


def _ask_refused_rank(impl: Module) -> tuple[str, ...]:
    clock = FakeClock()
    monitor = impl.require("HeartbeatMonitor")(2, 5, clock=clock)
    said = []
    for move, act in ((10, monitor.stopped), (10, lambda: monitor.beat(2)), (-5, monitor.stopped)):
        clock.now += move
        try:
            act()
            said.append("accepted")
        except ValueError:
            said.append("ValueError")
    return tuple(said)


def session_question(session: Session) -> Question:
    return Question(str(session), partial(_ask_session, session), _show_reports)


def _ask_session(session: Session, impl: Module) -> tuple[Any, ...]:
    monitor_class = impl.require("HeartbeatMonitor")
    clock = FakeClock()
    actions: list[tuple[str, Callable[[], Any]]] = []
    monitor: Any = None

    def build() -> None:
        nonlocal monitor
        monitor = monitor_class(session.world_size, session.timeout, clock=clock)

    actions.append(("construction", build))
    for kind, value in session.steps:
        actions.append((kind, _action(kind, value, clock, lambda: monitor)))
    reports = []
    for index, (kind, act) in enumerate(actions):
        reads = clock.reads
        try:
            result = act()
        except Exception as error:
            if index == len(actions) - 1:
                raise
            where = where_raised(error.__traceback__, impl.file)
            raise ShapeError(
                f"step {index} ({kind}) raised {type(error).__name__}: {error}, though "
                f"every step before the last is valid\n{where}",
                f"raised {type(error).__name__}",
            ) from None
        if kind == "stopped":
            report = rows(result)
            reports.append((report, clock.reads - reads) if session.count_reads else report)
    return tuple(reports)


def monitor_started(world_size: int, timeout: int) -> Question:
    """A monitor kept for the steps that follow, on a fake clock at BOOT."""
    return Question(
        f"clock = FakeClock({BOOT}); monitor = HeartbeatMonitor({world_size}, {timeout}, "
        "clock=clock)",
        partial(_ask_started, world_size, timeout),
    )


def _ask_started(world_size: int, timeout: int, impl: Module) -> Handle:
    clock = FakeClock()
    monitor = impl.require("HeartbeatMonitor")(world_size, timeout, clock=clock)
    return impl.keep((clock, monitor), "the monitor")


def monitor_step(handle: Handle, kind: str, value: int, text: str) -> Question:
    """One step on a kept monitor (`Session`'s kinds); a check answers its report as Rows."""
    return Question(text, partial(_ask_step, handle, kind, value), _show_reports)


def _ask_step(handle: Handle, kind: str, value: int, impl: Module) -> Any:
    clock, monitor = impl.kept(handle)
    result = _action(kind, value, clock, lambda: monitor)()
    return rows(result) if kind == "stopped" else None


def _action(
    kind: str, value: int, clock: FakeClock, monitor: Callable[[], Any]
) -> Callable[[], Any]:
    def act() -> Any:
        if kind == "advance":
            clock.now += value
        elif kind == "back":
            clock.now -= value
        elif kind == "beat":
            return monitor().beat(value)
        else:
            return monitor().stopped()
        return None

    return act


def _show_reports(reports: Sequence[Any]) -> str:
    shown = []
    for report in reports:
        if isinstance(report, tuple) and len(report) == 2 and isinstance(report[1], int):
            shown.append(f"{shown_list(report[0])} (clock read {report[1]} times)")
        else:
            shown.append(shown_list(report))
    return "stopped() returned, in turn: " + "; ".join(shown) if shown else "(no stopped() call)"


# --- the monitor's cost -------------------------------------------------------------------


@dataclass
class Tally:
    """Lines executed by beats and by checks, and how many of each."""

    beat_lines: int = 0
    beats: int = 0
    check_lines: int = 0
    checks: int = 0


@dataclass(frozen=True)
class MonitorWorkload:
    """Rounds of beats in shuffled orders, a check after each beat; nobody is ever silent."""

    name: str
    text: str
    ranks: int
    rounds: int
    warm: bool  # every rank has beaten once, unmeasured: the steady state of a running job
    # Ranks 0 to silent - 1 never beat, in a job running longer than the timeout: each check
    # reports them, and an answer that finds them by looking at every rank is seen to.
    silent: int = 0


def monitor_cost_question(workload: MonitorWorkload) -> Question:
    """Lines per beat and per check, counted, at n ranks and at 8n."""
    return Question(
        workload.text,
        partial(_ask_monitor_cost, workload),
        lambda answer: "; ".join(map(str, answer)),
    )


def _ask_monitor_cost(workload: MonitorWorkload, impl: Module) -> tuple[Growth, Growth]:
    small = _run_rounds(impl, workload.ranks, workload)
    large = _run_rounds(impl, GROWTH * workload.ranks, workload)
    return (
        _level(small.beat_lines / small.beats, large.beat_lines / large.beats, "beat"),
        _level(small.check_lines / small.checks, large.check_lines / large.checks, "check"),
    )


def _level(small: float, large: float, unit: str) -> Growth:
    return Growth(large / max(small, 1.0) <= LEVEL, small, large, LEVEL, unit)


def _shuffled(world_size: int, seed: int) -> list[int]:
    ranks = list(range(world_size))
    random.Random(seed).shuffle(ranks)
    return ranks


def _run_rounds(impl: Module, world_size: int, workload: MonitorWorkload) -> Tally:
    monitor_class, rounds = impl.require("HeartbeatMonitor"), workload.rounds
    clock = [BOOT]
    timeout = 10 * (rounds + 1) * world_size
    monitor = monitor_class(world_size, timeout, clock=lambda: clock[0])
    beating = [
        [r for r in _shuffled(world_size, seed) if r >= workload.silent]
        for seed in range(rounds + 1)
    ]
    orders = beating
    if workload.silent:
        clock[0] += timeout + 1  # running longer than the timeout: the silent are reported
        for rank in orders.pop(0):
            clock[0] += 1
            monitor.beat(rank)
    tally, reports = Tally(), list[Any]()
    for ranks in orders[:rounds]:
        for rank in ranks:
            clock[0] += 1
            tally.beat_lines += work(partial(monitor.beat, rank))
            tally.check_lines += work(lambda: reports.append(monitor.stopped()))
            tally.beats, tally.checks = tally.beats + 1, tally.checks + 1
            _reported_only_the_silent(reports[-1], workload.silent)
    return tally


def _nobody_reported(report: Any) -> None:
    _reported_only_the_silent(report, 0)


def _reported_only_the_silent(report: Any, silent: int) -> None:
    """The check's answer is right (its cost is measured only then): the ranks never heard,
    if the job has run past the timeout, and nobody else."""
    ranks = [getattr(s, "rank", None) for s in report] if isinstance(report, list) else None
    if ranks != list(range(silent)):  # the silent are reported in rank order (the tie)
        raise ShapeError(
            "stopped() reported other ranks than those never heard, in a job where every "
            "other rank was heard within the timeout: the answer is wrong, so its cost was "
            "not measured",
            brief(report),
        )


TIMED_RANKS = 500  # and 32,000: a copy of every rank, or a search of them, costs a lot there


def monitor_timed_question(operation: str) -> Question:
    """CPU microseconds per beat (or per check) of a warm monitor, at 500 ranks and 32,000."""
    what = "beat(rank), ranks in a seeded random order" if operation == "beat" else "stopped()"
    return timed_question(
        f"HeartbeatMonitor(n, timeout=10**12) running past its timeout, rank 0 never heard, "
        f"every other rank heard: the CPU time of "
        f"one {what}, the least of several tries, at n = {TIMED_RANKS:,} and "
        f"{TIMED_GROWTH * TIMED_RANKS:,}",
        partial(_prepare_monitor, operation),
        TIMED_RANKS,
        unit=operation,
    )


def _prepare_monitor(operation: str, impl: Module, world_size: int) -> Callable[[], object]:
    clock = [BOOT]
    monitor = impl.require("HeartbeatMonitor")(world_size, 10**12, clock=lambda: clock[0])
    # Running longer than the timeout, rank 0 never heard: each check reports it, and an
    # answer that finds the never-heard by looking at every rank pays for it each time.
    clock[0] += 10**12 + 1
    for rank in range(1, world_size):  # in rank order: setting up is cheap for any answer
        clock[0] += 1
        monitor.beat(rank)
    _reported_only_the_silent(monitor.stopped(), 1)
    # A random order, not a round: in a round, the rank to beat is always the one heard
    # longest ago, where a linear search of the ranks finds it at once.
    draw = random.Random(world_size).randrange
    ranks = itertools.cycle([1 + draw(world_size - 1) for _ in range(4096)])

    def beat() -> None:
        clock[0] += 1
        monitor.beat(next(ranks))

    def check() -> object:
        clock[0] += 1
        return monitor.stopped()

    return beat if operation == "beat" else check
