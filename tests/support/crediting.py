"""The credit scheduler from the tests' side: sessions of operations, and a model.

A `Session` is a configuration and a list of steps; asked of an
implementation it gives a transcript: "ok" for an operation done, the jobs
a `schedule` started (in order), a balance as (available, reserved, spent,
deposited), a job's state.  An operation that cannot be honoured must raise
ValueError *and change nothing*: after each ValueError the harness compares
every balance and every job's state with what they were before, and an
error that changed something is observed as such.

`Model` is the contract in its own words, brute force: the oracle of the
property and model tests.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction
from functools import partial
from typing import Any

from kata.cost import TIMED_GROWTH, timed_question, work
from kata.impl import Implementation, Module
from kata.outcomes import Question, ShapeError, brief
from tests.support.sessions import Shown, Transcript, expect_transcript, play

Step = tuple[Any, ...]
Observation = Any
STATES = frozenset({"queued", "reserved", "running", "finished", "failed", "cancelled"})


def open_account(name: str, weight: int = 1, max_running: int | None = None) -> Step:
    return ("open", name, weight, max_running)


def deposit(name: str, amount: int) -> Step:
    return ("deposit", name, amount)


def submit(job_id: Hashable, account: str, cost: int, priority: int = 0) -> Step:
    return ("submit", job_id, account, cost, priority)


def reserve(job_id: Hashable, now: int, ttl: int) -> Step:
    return ("reserve", job_id, now, ttl)


def release(job_id: Hashable) -> Step:
    return ("release", job_id)


def schedule(now: int) -> Step:
    return ("schedule", now)


def finish(job_id: Hashable, used: int) -> Step:
    return ("finish", job_id, used)


def fail(job_id: Hashable, used: int) -> Step:
    return ("fail", job_id, used)


def cancel(job_id: Hashable, used: int = 0) -> Step:
    return ("cancel", job_id, used)


def balance(name: str) -> Step:
    return ("balance", name)


def state(job_id: Hashable) -> Step:
    return ("state", job_id)


@dataclass(frozen=True)
class Session:
    slots: int
    fair: bool
    steps: tuple[Step, ...]

    @classmethod
    def of(cls, steps: Sequence[Step], *, slots: int = 1, fair: bool = False) -> Session:
        return cls(slots, fair, tuple(steps))

    def then(self, *steps: Step) -> Session:
        return replace(self, steps=self.steps + steps)

    def header(self) -> str:
        fair = ", fair=True" if self.fair else ""
        return f"s = Scheduler(Config(slots={self.slots}{fair}))"

    def __str__(self) -> str:
        return "\n".join(
            [self.header(), *(f"{i:>3}. {call(s)}" for i, s in enumerate(self.steps, 1))]
        )


def call(step: Step) -> str:
    kind, *rest = step
    if kind == "open":
        name, weight, limit = rest
        extra = (f", weight={weight}" if weight != 1 else "") + (
            f", max_running={limit}" if limit is not None else ""
        )
        return f"s.open_account({name!r}{extra})"
    if kind == "submit":
        job_id, account, cost, priority = rest
        shown = f"Job({job_id!r}, {account!r}, cost={cost}" + (
            f", priority={priority})" if priority else ")"
        )
        return f"s.submit({shown})"
    if kind == "reserve":
        return f"s.reserve({rest[0]!r}, now={rest[1]}, ttl={rest[2]})"
    if kind == "schedule":
        return f"s.schedule(now={rest[0]})"
    if kind == "cancel" and rest[1] == 0:
        return f"s.cancel({rest[0]!r})"
    return f"s.{kind}({', '.join(map(repr, rest))})"


def observed(observation: Observation) -> str:
    if isinstance(observation, tuple) and observation[:1] == ("started",):
        return f"starts {list(observation[1])}"
    if isinstance(observation, tuple) and observation[:1] == ("balance",):
        available, reserved, spent, deposited = observation[1]
        return f"available {available}, reserved {reserved}, spent {spent}, deposited {deposited}"
    return str(observation)


# --- asking ---------------------------------------------------------------------------------


def session(script: Session) -> Question:
    shown = _shown(script)
    return Question(str(script), partial(_run, script), shown.transcript)


def construction(slots: int) -> Question:
    """``Scheduler(Config(slots=slots))``: made, or what it raised."""
    return Question(f"Scheduler(Config(slots={slots}))", partial(_ask_made, slots))


def _ask_made(slots: int, impl: Module) -> str:
    impl.require("Scheduler")(impl.record("Config", slots=slots))
    return "made"


def _shown(script: Session) -> Shown:
    return Shown(script.header(), [call(s) for s in script.steps], observed)


def expect_session(
    impl: Implementation, script: Session, want: Sequence[Observation], *, rule: str
) -> None:
    expect_transcript(impl, session(script), _shown(script), want, rule=rule)


def expect_model(impl: Implementation, script: Session, *, rule: str) -> None:
    expect_session(impl, script, model(script), rule=rule)


def _run(script: Session, impl: Module) -> Transcript:
    # Every call is made as it is shown: a default is left out, so it is the module's own.
    fair = {"fair": True} if script.fair else {}
    scheduler = impl.require("Scheduler")(impl.record("Config", slots=script.slots, **fair))
    job_type = impl.type_named("Job")
    accounts: list[str] = []
    jobs: list[Hashable] = []

    def snapshot() -> tuple[Any, ...]:
        def quietly(read: Any) -> Any:
            try:
                return read()
            except ValueError:
                return None

        return tuple(quietly(lambda n=n: _balance(scheduler.balance(n))) for n in accounts) + tuple(
            quietly(lambda j=j: scheduler.state(j)) for j in jobs
        )

    def do(step: Step) -> Observation:
        kind, *rest = step
        before = snapshot()
        try:
            return _do(scheduler, job_type, kind, rest, accounts, jobs)
        except ValueError:
            if snapshot() != before:
                return "ValueError, but it changed a balance or a state"
            raise

    return play(impl, script.steps, do, {"ValueError": ValueError})


def _do(
    scheduler: Any,
    job_type: Any,
    kind: str,
    rest: list[Any],
    accounts: list[str],
    jobs: list[Hashable],
) -> Observation:
    if kind == "open":
        name, weight, limit = rest
        options = ({"weight": weight} if weight != 1 else {}) | (
            {"max_running": limit} if limit is not None else {}
        )
        scheduler.open_account(name, **options)
        accounts.append(name)
    elif kind == "deposit":
        scheduler.deposit(*rest)
    elif kind == "submit":
        job_id, account, cost, priority = rest
        ranked = {"priority": priority} if priority else {}
        scheduler.submit(job_type(job_id, account, cost=cost, **ranked))
        jobs.append(job_id)
    elif kind == "reserve":
        scheduler.reserve(rest[0], now=rest[1], ttl=rest[2])
    elif kind == "release":
        scheduler.release(rest[0])
    elif kind == "schedule":
        started = scheduler.schedule(now=rest[0])
        if not isinstance(started, list):
            raise ShapeError("schedule() returns the list of jobs started", brief(started))
        return ("started", tuple(started))
    elif kind in ("finish", "fail"):
        getattr(scheduler, kind)(rest[0], rest[1])
    elif kind == "cancel":
        scheduler.cancel(*rest[:1] if rest[1] == 0 else rest)
    elif kind == "balance":
        return ("balance", _balance(scheduler.balance(rest[0])))
    else:
        found = scheduler.state(rest[0])
        if found not in STATES:
            raise ShapeError(f"a job's state is one of {sorted(STATES)}", brief(found))
        return found
    return "ok"


def _balance(record: Any) -> tuple[int, int, int, int]:
    try:
        values = (record.available, record.reserved, record.spent, record.deposited)
    except AttributeError as error:
        raise ShapeError(
            f"a Balance has available, reserved, spent, deposited: {error}", brief(record)
        ) from None
    if any(type(v) is not int for v in values):
        raise ShapeError("credits are ints, never floats", brief(record))
    return values


# --- the model ------------------------------------------------------------------------------


@dataclass
class _Account:
    name: str
    weight: int
    limit: int | None
    available: int = 0
    reserved: int = 0
    spent: int = 0
    deposited: int = 0
    vtime: Fraction = Fraction(0)


@dataclass
class _Job:
    id: Hashable
    account: str
    cost: int
    priority: int
    seq: int
    state: str = "queued"
    expires: int | None = None


@dataclass
class Model:
    """The contract, operation by operation, each decision by scanning everything."""

    slots: int
    fair: bool
    accounts: dict[str, _Account] = field(default_factory=dict)
    jobs: dict[Hashable, _Job] = field(default_factory=dict)
    vtime: Fraction = Fraction(0)
    now: int | None = None

    def step(self, step: Step) -> Observation:
        kind, *rest = step
        try:
            return getattr(self, f"_{kind}")(*rest)
        except _Refused:
            return "ValueError"

    def _open(self, name: str, weight: int, limit: int | None) -> Observation:
        _refuse_if(name in self.accounts or weight < 1 or (limit is not None and limit < 1))
        self.accounts[name] = _Account(name, weight, limit)
        return "ok"

    def _deposit(self, name: str, amount: int) -> Observation:
        _refuse_if(name not in self.accounts or amount < 1)
        account = self.accounts[name]
        account.available += amount
        account.deposited += amount
        return "ok"

    def _submit(self, job_id: Hashable, account: str, cost: int, priority: int) -> Observation:
        _refuse_if(account not in self.accounts or job_id in self.jobs or cost < 1)
        self.jobs[job_id] = _Job(job_id, account, cost, priority, len(self.jobs))
        return "ok"

    def _reserve(self, job_id: Hashable, now: int, ttl: int) -> Observation:
        job = self.jobs.get(job_id)
        _refuse_if(job is None or job.state != "queued" or ttl < 1)
        assert job is not None
        _refuse_if(self.now is not None and now < self.now)
        account = self.accounts[job.account]
        _refuse_if(job.cost > account.available)
        self.now = now
        account.available -= job.cost
        account.reserved += job.cost
        job.state, job.expires = "reserved", now + ttl
        return "ok"

    def _release(self, job_id: Hashable) -> Observation:
        job = self.jobs.get(job_id)
        _refuse_if(job is None or job.state != "reserved")
        assert job is not None
        self._unreserve(job)
        return "ok"

    def _unreserve(self, job: _Job) -> None:
        account = self.accounts[job.account]
        account.available += job.cost
        account.reserved -= job.cost
        job.state, job.expires = "queued", None

    def _schedule(self, now: int) -> Observation:
        _refuse_if(self.now is not None and now < self.now)
        self.now = now
        for job in sorted(self.jobs.values(), key=lambda j: (j.expires or 0, j.seq)):
            if job.state == "reserved" and job.expires is not None and job.expires <= now:
                self._unreserve(job)
        started: list[Hashable] = []
        blocked: set[str] = set()  # accounts that cannot start this time
        while self._running() < self.slots:
            choices = []
            for name, account in self.accounts.items():
                head = self._head(name)
                if head is None or name in blocked:
                    continue
                running = sum(
                    1 for j in self.jobs.values() if j.account == name and j.state == "running"
                )
                if (account.limit is not None and running >= account.limit) or (
                    head.state == "queued" and head.cost > account.available
                ):
                    blocked.add(name)
                    continue
                order = list(self.accounts).index(name)
                rank = (
                    (max(account.vtime, self.vtime), order)
                    if self.fair
                    else (-head.priority, head.seq)
                )
                choices.append((rank, name, head))
            if not choices:
                break
            _, name, head = min(choices, key=lambda c: c[0])
            account = self.accounts[name]
            if head.state == "queued":
                account.available -= head.cost
                account.reserved += head.cost
            head.state, head.expires = "running", None
            if self.fair:
                self.vtime = max(account.vtime, self.vtime)
                account.vtime = self.vtime + Fraction(head.cost, account.weight)
            started.append(head.id)
        return ("started", tuple(started))

    def _head(self, name: str) -> _Job | None:
        waiting = [
            j for j in self.jobs.values() if j.account == name and j.state in ("queued", "reserved")
        ]
        return min(waiting, key=lambda j: (-j.priority, j.seq), default=None)

    def _running(self) -> int:
        return sum(1 for j in self.jobs.values() if j.state == "running")

    def _finish(self, job_id: Hashable, used: int) -> Observation:
        return self._end(job_id, used, "finished")

    def _fail(self, job_id: Hashable, used: int) -> Observation:
        return self._end(job_id, used, "failed")

    def _end(self, job_id: Hashable, used: int, state: str) -> Observation:
        job = self.jobs.get(job_id)
        _refuse_if(job is None or job.state != "running")
        assert job is not None
        _refuse_if(not 0 <= used <= job.cost)
        account = self.accounts[job.account]
        account.reserved -= job.cost
        account.spent += used
        account.available += job.cost - used
        job.state = state
        return "ok"

    def _cancel(self, job_id: Hashable, used: int) -> Observation:
        job = self.jobs.get(job_id)
        _refuse_if(job is None or job.state not in ("queued", "reserved", "running"))
        assert job is not None
        if job.state == "running":
            return self._end(job_id, used, "cancelled")
        _refuse_if(used != 0)
        if job.state == "reserved":
            self._unreserve(job)
        job.state = "cancelled"
        return "ok"

    def _balance(self, name: str) -> Observation:
        _refuse_if(name not in self.accounts)
        a = self.accounts[name]
        return ("balance", (a.available, a.reserved, a.spent, a.deposited))

    def _state(self, job_id: Hashable) -> Observation:
        _refuse_if(job_id not in self.jobs)
        return self.jobs[job_id].state


class _Refused(Exception):  # noqa: N818 (the model's own ValueError)
    pass


def _refuse_if(condition: bool) -> None:
    if condition:
        raise _Refused


def model(script: Session) -> tuple[Observation, ...]:
    oracle = Model(script.slots, script.fair)
    return tuple(oracle.step(step) for step in script.steps)


def started(*job_ids: Hashable) -> Observation:
    return ("started", tuple(job_ids))


def balanced(available: int, reserved: int, spent: int, deposited: int) -> Observation:
    return ("balance", (available, reserved, spent, deposited))


# --- the cost of a decision ----------------------------------------------------------

DECISIONS = 50  # measured, at n and at 8n waiting jobs


def per_decision(impl: Module) -> Callable[[int], float]:
    """Lines per decision (a start, then the job ends) with n jobs waiting in each of two
    accounts."""

    def measure(count: int) -> float:
        s = _waiting(impl, count)

        def decide() -> None:
            for now in range(DECISIONS):
                (started,) = s.schedule(now=now)
                s.finish(started, 1)

        return work(decide) / DECISIONS

    return measure


def _waiting(impl: Module, count: int) -> Any:
    """A scheduler with one slot and two accounts, each with `count` jobs waiting.

    Submitted in the order they will run, so that a module keeping sorted lists
    appends each one: the setup costs any module O(n); only decisions are measured.
    """
    scheduler = impl.require("Scheduler")(impl.record("Config", slots=1))
    job = impl.type_named("Job")
    for name in ("a", "b"):
        scheduler.open_account(name)
        scheduler.deposit(name, 10**12)
        for i in range(count):
            scheduler.submit(job(f"{name}{i}", name, 1 + i % 7))
    return scheduler


TIMED_JOBS = 5_000  # and 320,000 in one account: a shift or a copy of its queue costs a lot there


def timed_decisions_question() -> Question:
    return timed_question(
        f"Scheduler(Config(slots=1)) with n jobs waiting in one account: the CPU time of one "
        f"decision (schedule, the job ends, a new job is submitted), the least of several "
        f"tries, at n = {TIMED_JOBS:,} and {TIMED_GROWTH * TIMED_JOBS:,}",
        _prepare_decisions,
        TIMED_JOBS,
        unit="decision",
    )


def _prepare_decisions(impl: Module, count: int) -> Callable[[], object]:
    """One account with `count` jobs waiting; each decision ends with a job submitted
    behind them, so that the queue keeps its length however many are timed."""
    scheduler = impl.require("Scheduler")(impl.record("Config", slots=1))
    job, clock, fresh = impl.type_named("Job"), itertools.count(), itertools.count(count)
    scheduler.open_account("a")
    scheduler.deposit("a", 10**15)
    for i in range(count):  # in the order they will run: a sorted list appends each
        scheduler.submit(job(i, "a", 1 + i % 7))

    def decide() -> None:
        (started,) = scheduler.schedule(now=next(clock))
        scheduler.finish(started, 1)
        scheduler.submit(job(next(fresh), "a", 1 + started % 7))

    return decide
