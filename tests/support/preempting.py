"""The quota scheduler from the tests' side: sessions of calls, and a model.

A `Session` is a cluster (capacity, tenants, reclaim, min_run) and a list of
steps; asked of an implementation it gives a transcript: "ok" for a call
done, a `schedule`'s jobs started (in order) and preempted (as a set), a
job's state, a tenant's usage or lost work.  An operation that cannot be
honoured must raise ValueError *and change nothing*: after each ValueError
the harness compares every tenant's usage and lost work and every job's
state with what they were before.

`Model` is the contract in its own words, brute force: every decision
sorts every queued and running job.  The oracle of the property tests.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction
from functools import partial
from typing import Any

from kata.cost import cost_question, work
from kata.impl import Implementation, Module
from kata.outcomes import Question, ShapeError, brief
from tests.support.sessions import Shown, Transcript, expect_transcript, play

Step = tuple[Any, ...]
Observation = Any
STATES = frozenset({"queued", "running", "finished", "cancelled"})
TenantSpec = tuple[str, int, int | None]  # name, quota, borrowing_limit


def submit(
    job_id: Hashable,
    tenant: str,
    gpus: int,
    now: int,
    *,
    priority: int = 0,
    preemptible: bool = True,
    checkpoint_every: int | None = None,
) -> Step:
    return ("submit", job_id, tenant, gpus, now, priority, preemptible, checkpoint_every)


def finish(job_id: Hashable, now: int) -> Step:
    return ("finish", job_id, now)


def cancel(job_id: Hashable, now: int) -> Step:
    return ("cancel", job_id, now)


def schedule(now: int) -> Step:
    return ("schedule", now)


def state(job_id: Hashable) -> Step:
    return ("state", job_id)


def usage(tenant: str) -> Step:
    return ("usage", tenant)


def lost(tenant: str) -> Step:
    return ("lost", tenant)


def decided(started: Sequence[Hashable] = (), preempted: Sequence[Hashable] = ()) -> Observation:
    """What a schedule call answers: the jobs started in order, those preempted as a set."""
    return ("decided", tuple(started), frozenset(preempted))


NOTHING = decided()


@dataclass(frozen=True)
class Session:
    capacity: int
    tenants: tuple[TenantSpec, ...]
    steps: tuple[Step, ...]
    reclaim: bool = True
    min_run: int = 0

    @classmethod
    def of(
        cls,
        capacity: int,
        tenants: Sequence[tuple[Any, ...]],
        steps: Sequence[Step],
        *,
        reclaim: bool = True,
        min_run: int = 0,
    ) -> Session:
        specs = tuple((t[0], t[1], t[2] if len(t) > 2 else None) for t in tenants)
        return cls(capacity, specs, tuple(steps), reclaim, min_run)

    def then(self, *steps: Step) -> Session:
        return replace(self, steps=self.steps + steps)

    def header(self) -> str:
        tenants = ", ".join(_tenant_call(t) for t in self.tenants)
        extra = (", reclaim=False" if not self.reclaim else "") + (
            f", min_run={self.min_run}" if self.min_run else ""
        )
        return f"s = Scheduler({self.capacity}, [{tenants}]{extra})"

    def __str__(self) -> str:
        return "\n".join(
            [self.header(), *(f"{i:>3}. {call(s)}" for i, s in enumerate(self.steps, 1))]
        )


def _tenant_call(spec: TenantSpec) -> str:
    name, quota, borrowing = spec
    return f"Tenant({name!r}, {quota}" + (f", {borrowing})" if borrowing is not None else ")")


def call(step: Step) -> str:
    kind, *rest = step
    if kind == "submit":
        job_id, tenant, gpus, now, priority, preemptible, every = rest
        extra = (
            (f", priority={priority}" if priority else "")
            + (", preemptible=False" if not preemptible else "")
            + (f", checkpoint_every={every}" if every is not None else "")
        )
        return f"s.submit(Job({job_id!r}, {tenant!r}, {gpus}{extra}), now={now})"
    if kind in ("finish", "cancel"):
        return f"s.{kind}({rest[0]!r}, now={rest[1]})"
    if kind == "schedule":
        return f"s.schedule(now={rest[0]})"
    return f"s.{kind}({rest[0]!r})"


def observed(observation: Observation) -> str:
    if isinstance(observation, tuple) and observation[:1] == ("decided",):
        _, started, preempted = observation
        shown = f"starts {list(started)}"
        return shown + (f", preempts {sorted(preempted, key=repr)}" if preempted else "")
    return str(observation)


# --- asking ---------------------------------------------------------------------------------


def session(script: Session) -> Question:
    return Question(str(script), partial(_run, script), _shown(script).transcript)


def _shown(script: Session) -> Shown:
    return Shown(script.header(), [call(s) for s in script.steps], observed)


def expect_session(
    impl: Implementation, script: Session, want: Sequence[Observation], *, rule: str
) -> None:
    expect_transcript(impl, session(script), _shown(script), want, rule=rule)


def expect_model(impl: Implementation, script: Session, *, rule: str) -> None:
    expect_session(impl, script, model(script), rule=rule)


def construction(capacity: Any, tenants: Sequence[tuple[Any, ...]], **options: Any) -> Question:
    """``Scheduler(capacity, [Tenant(...), ...], **options)``: made, or what it raised."""
    shown = ", ".join(f"Tenant({', '.join(map(repr, t))})" for t in tenants)
    extra = "".join(f", {k}={v!r}" for k, v in options.items())
    return Question(
        f"Scheduler({capacity!r}, [{shown}]{extra})",
        partial(_ask_made, capacity, tuple(tenants), tuple(options.items())),
    )


def _ask_made(
    capacity: Any, tenants: tuple[tuple[Any, ...], ...], options: Any, impl: Module
) -> str:
    made = [impl.record("Tenant", *fields) for fields in tenants]
    impl.require("Scheduler")(capacity, made, **dict(options))
    return "made"


def construction_from_a_generator(capacity: int, tenants: Sequence[tuple[Any, ...]]) -> Question:
    """``Scheduler(capacity, (Tenant(...) for ...))``, then the tenants' usage: made and
    asked, or what it raised; the tenants are read from a generator, once."""
    shown = ", ".join(f"Tenant({', '.join(map(repr, t))})" for t in tenants)
    return Question(
        f"s = Scheduler({capacity!r}, (t for t in [{shown}]))\n"
        f"[s.usage(name) for name in {[t[0] for t in tenants]!r}]",
        partial(_ask_made_from_a_generator, capacity, tuple(tenants)),
    )


def _ask_made_from_a_generator(
    capacity: int, tenants: tuple[tuple[Any, ...], ...], impl: Module
) -> str:
    made = [impl.record("Tenant", *fields) for fields in tenants]
    scheduler = impl.require("Scheduler")(capacity, (tenant for tenant in made))
    for fields in tenants:
        scheduler.usage(fields[0])
    return "made"


def _make(script: Session, impl: Module) -> Any:
    tenants = [
        impl.record("Tenant", name, quota, *(() if borrowing is None else (borrowing,)))
        for name, quota, borrowing in script.tenants
    ]
    options = ({"reclaim": False} if not script.reclaim else {}) | (
        {"min_run": script.min_run} if script.min_run else {}
    )
    return impl.require("Scheduler")(script.capacity, tenants, **options)


def _run(script: Session, impl: Module) -> Transcript:
    # Every call is made as it is shown: a default is left out, so it is the module's own.
    scheduler = _make(script, impl)
    job_type = impl.type_named("Job")
    names = [name for name, _, _ in script.tenants]
    jobs: list[Hashable] = []

    def snapshot() -> tuple[Any, ...]:
        def quietly(read: Callable[[], Any]) -> Any:
            try:
                return read()
            except ValueError:
                return None

        tenants = tuple(
            (quietly(partial(scheduler.usage, n)), quietly(partial(scheduler.lost, n)))
            for n in names
        )
        return tenants + tuple(quietly(partial(scheduler.state, j)) for j in jobs)

    def do(step: Step) -> Observation:
        before = snapshot()
        try:
            return _do(scheduler, job_type, step, jobs)
        except ValueError:
            if snapshot() != before:
                return "ValueError, but it changed a usage, a loss or a state"
            raise

    return play(impl, script.steps, do, {"ValueError": ValueError})


def _do(scheduler: Any, job_type: Any, step: Step, jobs: list[Hashable]) -> Observation:
    kind, *rest = step
    if kind == "submit":
        job_id, tenant, gpus, now, priority, preemptible, every = rest
        options = (
            ({"priority": priority} if priority else {})
            | ({"preemptible": False} if not preemptible else {})
            | ({"checkpoint_every": every} if every is not None else {})
        )
        scheduler.submit(job_type(job_id, tenant, gpus, **options), now=now)
        jobs.append(job_id)
    elif kind in ("finish", "cancel"):
        getattr(scheduler, kind)(rest[0], now=rest[1])
    elif kind == "schedule":
        return _decision(scheduler.schedule(now=rest[0]))
    elif kind == "state":
        found = scheduler.state(rest[0])
        if found not in STATES:
            raise ShapeError(f"a job's state is one of {sorted(STATES)}", brief(found))
        return found
    else:
        value = getattr(scheduler, kind)(rest[0])
        if isinstance(value, bool) or not isinstance(value, int):
            raise ShapeError(f"{kind}() returns an int", brief(value))
        return (kind, rest[0], value)
    return "ok"


def _decision(record: Any) -> Observation:
    try:
        started, preempted = record.started, record.preempted
    except AttributeError as error:
        raise ShapeError(f"a Decision has started and preempted: {error}", brief(record)) from None
    if not isinstance(started, list | tuple) or not isinstance(preempted, list | tuple):
        raise ShapeError("a Decision's started and preempted are lists", brief(record))
    if len(set(preempted)) != len(preempted):
        raise ShapeError("a job is preempted once per call", brief(record))
    return decided(started, preempted)


def used(tenant: str, gpus: int) -> Observation:
    return ("usage", tenant, gpus)


def loss(tenant: str, gpu_ticks: int) -> Observation:
    return ("lost", tenant, gpu_ticks)


# --- the model ------------------------------------------------------------------------------


class _Refused(Exception):  # noqa: N818 (the model's own ValueError)
    pass


def _refuse_if(condition: bool) -> None:
    if condition:
        raise _Refused


@dataclass
class _Job:
    id: Hashable
    tenant: str
    gpus: int
    priority: int
    preemptible: bool
    every: int | None
    submission: int
    state: str = "queued"
    started: int = 0


@dataclass
class Model:
    """The contract, call by call, each decision by sorting every job there is."""

    capacity: int
    quotas: dict[str, int]
    limits: dict[str, int]
    reclaim: bool
    min_run: int
    jobs: dict[Hashable, _Job] = field(default_factory=dict)
    lost: dict[str, int] = field(default_factory=dict)
    now: int | None = None

    @classmethod
    def of(cls, script: Session) -> Model:
        quotas = {name: quota for name, quota, _ in script.tenants}
        limits = {
            name: script.capacity if b is None else min(script.capacity, quota + b)
            for name, quota, b in script.tenants
        }
        lost = dict.fromkeys(quotas, 0)
        return cls(script.capacity, quotas, limits, script.reclaim, script.min_run, lost=lost)

    def step(self, step: Step) -> Observation:
        kind, *rest = step
        try:
            return getattr(self, f"_{kind}")(*rest)
        except _Refused:
            return "ValueError"

    def usage_of(self, tenant: str) -> int:
        return sum(
            j.gpus for j in self.jobs.values() if j.tenant == tenant and j.state == "running"
        )

    def _time(self, now: int) -> None:
        _refuse_if(self.now is not None and now < self.now)

    def _submit(
        self,
        job_id: Hashable,
        tenant: str,
        gpus: int,
        now: int,
        priority: int,
        preemptible: bool,
        every: int | None,
    ) -> Observation:
        self._time(now)
        _refuse_if(tenant not in self.quotas or job_id in self.jobs or gpus < 1)
        _refuse_if(gpus > (self.limits[tenant] if preemptible else self.quotas[tenant]))
        _refuse_if(every is not None and every < 1)
        self.now = now
        self.jobs[job_id] = _Job(job_id, tenant, gpus, priority, preemptible, every, len(self.jobs))
        return "ok"

    def _finish(self, job_id: Hashable, now: int) -> Observation:
        return self._end(job_id, now, "finished", ("running",))

    def _cancel(self, job_id: Hashable, now: int) -> Observation:
        return self._end(job_id, now, "cancelled", ("queued", "running"))

    def _end(self, job_id: Hashable, now: int, to: str, states: tuple[str, ...]) -> Observation:
        self._time(now)
        job = self.jobs.get(job_id)
        _refuse_if(job is None or job.state not in states)
        assert job is not None
        self.now, job.state = now, to
        return "ok"

    def _state(self, job_id: Hashable) -> Observation:
        _refuse_if(job_id not in self.jobs)
        return self.jobs[job_id].state

    def _usage(self, tenant: str) -> Observation:
        _refuse_if(tenant not in self.quotas)
        return ("usage", tenant, self.usage_of(tenant))

    def _lost(self, tenant: str) -> Observation:
        _refuse_if(tenant not in self.quotas)
        return ("lost", tenant, self.lost[tenant])

    def _schedule(self, now: int) -> Observation:
        self._time(now)
        self.now = now
        started: list[Hashable] = []
        preempted: list[Hashable] = []
        settled: set[Hashable] = set()
        while True:
            chosen = self._choose(now, settled)
            if chosen is None:
                return decided(started, preempted)
            head, victims = chosen
            for victim in victims:
                ran = now - victim.started
                self.lost[victim.tenant] += victim.gpus * (
                    ran % victim.every if victim.every else ran
                )
                victim.state = "queued"
                preempted.append(victim.id)
                settled.add(victim.id)
            head.state, head.started = "running", now
            started.append(head.id)
            settled.add(head.id)

    def _choose(self, now: int, settled: set[Hashable]) -> tuple[_Job, list[_Job]] | None:
        heads = []
        waiting = False  # a head within its tenant's quota that cannot start
        for index, tenant in enumerate(self.quotas):
            queued = [j for j in self.jobs.values() if j.tenant == tenant and j.state == "queued"]
            if not queued:
                continue
            head = min(queued, key=lambda j: (-j.priority, j.submission))
            use, quota = self.usage_of(tenant), self.quotas[tenant]
            if head.id in settled:  # preempted by this call: its tenant waits
                waiting |= use + head.gpus <= quota
                continue
            share = (quota == 0, Fraction(use, quota) if quota else Fraction(0))  # 0: infinite
            heads.append(((use + head.gpus > quota, share, index), head))
        for (borrows, _, _), head in sorted(heads, key=lambda h: h[0]):
            if borrows and waiting:
                return None  # no borrower while a head within its quota waits
            victims = self._victims(head, now)
            if victims is not None:
                return head, victims
            waiting |= not borrows
        return None

    def _victims(self, head: _Job, now: int) -> list[_Job] | None:
        tenant, gpus = head.tenant, head.gpus
        use, quota, most = self.usage_of(tenant), self.quotas[tenant], self.limits[tenant]
        pinned = sum(
            j.gpus
            for j in self.jobs.values()
            if j.tenant == tenant and j.state == "running" and not j.preemptible
        )
        if not head.preemptible and pinned + gpus > quota:
            return None
        free = self.capacity - sum(j.gpus for j in self.jobs.values() if j.state == "running")
        if gpus <= free and use + gpus <= most:
            return []
        movable = sorted(
            (
                j
                for j in self.jobs.values()
                if j.state == "running" and j.preemptible and now - j.started >= self.min_run
            ),
            key=lambda j: (j.priority, -j.started, -j.submission),
        )
        if self.reclaim and use + gpus <= quota:
            taken_from = dict.fromkeys(self.quotas, 0)
            borrowed = []
            for j in movable:
                if j.tenant != tenant and (
                    self.usage_of(j.tenant) - taken_from[j.tenant] > self.quotas[j.tenant]
                ):
                    borrowed.append(j)
                    taken_from[j.tenant] += j.gpus
                    if gpus <= free + sum(v.gpus for v in borrowed):
                        return _spare(borrowed, lambda f: gpus <= free + f)
        lower = []
        for j in movable:
            if j.tenant == tenant and j.priority < head.priority:
                lower.append(j)
                freed = sum(v.gpus for v in lower)
                if gpus <= free + freed and use - freed + gpus <= most:
                    return _spare(lower, lambda f: gpus <= free + f and use - f + gpus <= most)
        return None


def _spare(taken: list[_Job], fits: Callable[[int], bool]) -> list[_Job]:
    """From the next-to-last back to the first, each victim the head fits without is spared."""
    kept = list(taken)
    for victim in reversed(taken[:-1]):
        if fits(sum(v.gpus for v in kept) - victim.gpus):
            kept.remove(victim)
    return kept


def model(script: Session) -> tuple[Observation, ...]:
    oracle = Model.of(script)
    return tuple(oracle.step(step) for step in script.steps)


# --- the cost of a decision -----------------------------------------------------------------

DECISIONS = 40  # measured, at n and at 8n running jobs


def per_decision(impl: Module) -> Callable[[int], float]:
    """Lines per decision with n jobs running: a reclaim that preempts one borrowed job,
    then the reclaiming job finishes."""

    def measure(count: int) -> float:
        scheduler, now = _borrowed_cluster(impl, count)
        job = impl.type_named("Job")

        def decide() -> None:
            for i in range(DECISIONS):
                scheduler.submit(job(f"g{i}", "guaranteed", 1), now=now + i)
                scheduler.schedule(now=now + i)
                scheduler.finish(f"g{i}", now=now + i)
                scheduler.schedule(now=now + i)  # the preempted job borrows its GPU again

        return work(decide) / DECISIONS

    return measure


def _borrowed_cluster(impl: Module, count: int) -> tuple[Any, int]:
    """2n GPUs: "guaranteed" (quota n) idle, "borrower" (quota n) running 2n one-GPU jobs."""
    tenants = [impl.record("Tenant", "guaranteed", count), impl.record("Tenant", "borrower", count)]
    scheduler = impl.require("Scheduler")(2 * count, tenants)
    job = impl.type_named("Job")
    for i in range(2 * count):
        scheduler.submit(job(f"b{i}", "borrower", 1), now=0)
    scheduler.schedule(now=0)
    return scheduler, 1


def cost(n: int, limit: float) -> Question:
    return cost_question(
        f"{DECISIONS} reclaims of one GPU from a tenant running {2 * n}, then {16 * n} jobs "
        "(the job that reclaimed finishes, the preempted one starts again)",
        per_decision,
        n,
        limit=limit,
        unit="decision",
    )
