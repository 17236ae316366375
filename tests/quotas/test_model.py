"""Any session against the brute-force model; the bounds, the guarantee and no thrashing, read
from the candidate's own answers.

Sessions are drawn step by step beside the model, whose state says which
calls make sense (mostly), with a share of impossible ones, which must
raise ValueError and change nothing.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    precondition,
    rule,
    run_state_machine_as_test,
)

from kata.checks import expect_that
from kata.impl import Implementation
from tests.support.preempting import (
    Model,
    Session,
    Step,
    cancel,
    expect_session,
    finish,
    schedule,
    session,
    state,
    submit,
    usage,
)

pytestmark = pytest.mark.quota_guarantees

RULE = "the contract, call by call: see variants/quotas/README.md"
NAMES = ("a", "b", "c")
ACTIONS = ["submit"] * 6 + ["schedule"] * 4 + ["finish"] * 2 + ["cancel", "look"]


@st.composite
def clusters(draw: st.DrawFn, *, min_run: st.SearchStrategy[int] | None = None) -> Session:
    """A capacity of 4 to 12 GPUs, three tenants whose quotas fit in it, no steps yet."""
    capacity = draw(st.integers(4, 12))
    quotas = [draw(st.integers(0, capacity // 3)) for _ in NAMES]
    limits = [draw(st.none() | st.integers(0, capacity)) for _ in NAMES]
    runs = draw(min_run if min_run is not None else st.sampled_from([0, 0, 3]))
    tenants = [(n, q, b) for n, q, b in zip(NAMES, quotas, limits, strict=True)]
    return Session.of(capacity, tenants, [], reclaim=draw(st.booleans()), min_run=runs)


def _job(draw: Callable[..., Any], oracle: Model, name: str, now: int) -> Step:
    """A job of `name` that could run (mostly); now and then one that is refused."""
    tenant = draw(st.sampled_from(NAMES))
    most = max(1, oracle.limits[tenant])
    gpus = draw(st.integers(0, most + 1))  # 0 and most + 1: refused, unless the limit is 0
    preemptible = draw(st.booleans()) or gpus > oracle.quotas[tenant]
    every = draw(st.none() | st.integers(1, 5))
    priority = draw(st.integers(0, 2))
    return submit(
        name, tenant, gpus, now, priority=priority, preemptible=preemptible, checkpoint_every=every
    )


@st.composite
def sessions(draw: st.DrawFn, *, looks: bool = True) -> Session:
    script = draw(clusters())
    oracle, steps, now = Model.of(script), list[Step](), 0

    def take(step: Step) -> None:
        steps.append(step)
        oracle.step(step)

    labels = draw(st.permutations(range(30)))  # ids in no particular order
    for count, action in enumerate(
        draw(st.lists(st.sampled_from(ACTIONS), min_size=4, max_size=30))
    ):
        jobs = list(oracle.jobs) or ["nobody"]
        if action == "submit":
            now += draw(st.integers(0, 2))
            take(_job(draw, oracle, f"j{labels[count]}", now))
        elif action == "schedule":
            now += draw(st.integers(0, 4))
            take(schedule(now))
            if looks:
                for name in NAMES:
                    take(usage(name))
        elif action in ("finish", "cancel"):
            running = [j for j, job in oracle.jobs.items() if job.state == "running"] or jobs
            now += draw(st.integers(0, 2))
            end = finish if action == "finish" else cancel
            take(end(draw(st.sampled_from(running if action == "finish" else jobs)), now))
        else:
            take(state(draw(st.sampled_from(jobs))))
    return Session(script.capacity, script.tenants, tuple(steps), script.reclaim, script.min_run)


@pytest.mark.rules(4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14)
@given(sessions())
def test_every_session_matches_the_model(impl: Implementation, script: Session) -> None:
    model = Model.of(script)
    expect_session(impl, script, [model.step(step) for step in script.steps], rule=RULE)


@pytest.mark.rules(15)
@given(sessions())
def test_gpus_never_exceed_the_capacity_or_a_tenants_limit(
    impl: Implementation, script: Session
) -> None:
    """Every tenant's usage is read after every schedule call: each within its limit, their
    sum within the capacity."""
    limits = {
        name: script.capacity if b is None else min(script.capacity, q + b)
        for name, q, b in script.tenants
    }

    def bounded(transcript: Any) -> bool:
        seen: dict[str, int] = {}
        for observation in transcript.observations:
            if isinstance(observation, tuple) and observation[:1] == ("usage",):
                _, name, gpus = observation
                seen[name] = gpus
                if not 0 <= gpus <= limits[name] or sum(seen.values()) > script.capacity:
                    return False
            elif isinstance(observation, tuple) and observation[:1] == ("decided",):
                seen = {}
        return len(transcript.observations) == len(script.steps)

    expect_that(
        impl,
        [session(script)],
        bounded,
        claim="after every schedule call: each tenant's usage within its limit, all within "
        "the capacity",
        rule="the running jobs hold at most the capacity, and each tenant at most its limit",
    )


@st.composite
def guaranteed_sessions(draw: st.DrawFn) -> Session:
    """Sessions with reclaim on and min_run 0, each schedule call followed by every job's
    state and every tenant's usage: what the guarantee is read from."""
    script = draw(sessions(looks=False))
    steps: list[Step] = []
    jobs: list[Any] = []
    for step in script.steps:
        steps.append(step)
        if step[0] == "submit":
            jobs.append(step[1])
        if step[0] == "schedule":
            steps += [usage(name) for name in NAMES] + [state(j) for j in dict.fromkeys(jobs)]
    return Session(script.capacity, script.tenants, tuple(steps), reclaim=True, min_run=0)


def _guarantee_kept(script: Session, transcript: Any) -> bool:
    """After each schedule call: no tenant that lost nothing in it has a head within quota."""
    quotas = {name: quota for name, quota, _ in script.tenants}
    jobs: dict[Any, Step] = {}
    observations = transcript.observations
    if len(observations) != len(script.steps):
        return False
    for i, step in enumerate(script.steps):
        if step[0] == "submit" and observations[i] == "ok":
            jobs[step[1]] = step
        if step[0] != "schedule" or observations[i] == "ValueError":
            continue
        _, _, preempted = observations[i]
        used: dict[str, int] = {}
        states: dict[Any, Any] = {}
        following = i + 1
        while following < len(script.steps) and script.steps[following][0] in ("usage", "state"):
            read, seen = script.steps[following], observations[following]
            if read[0] == "usage" and isinstance(seen, tuple):
                used[read[1]] = seen[2]
            elif read[0] == "state":
                states[read[1]] = seen
            following += 1
        losers = {jobs[j][2] for j in preempted if j in jobs}
        for name in NAMES:
            queued = [s for j, s in jobs.items() if s[2] == name and states.get(j) == "queued"]
            if not queued or name in losers:
                continue
            head = min(queued, key=lambda s: (-s[5], list(jobs).index(s[1])))
            if used[name] + head[3] <= quotas[name]:
                return False
    return True


@pytest.mark.rules(16)
@given(guaranteed_sessions())
def test_a_head_within_its_quota_never_waits_a_call(impl: Implementation, script: Session) -> None:
    """Reclaim on, min_run 0: after each schedule call, every tenant that lost no job in it
    has no queued head that would keep it within its quota."""
    expect_that(
        impl,
        [session(script)],
        lambda transcript: _guarantee_kept(script, transcript),
        claim="after each schedule call, no head that fits its tenant's quota is left waiting",
        rule="a tenant within its quota gets its quota back, by reclaim, in the same call",
    )


def _quiet(observation: Any) -> bool:
    return bool(observation == ("decided", (), frozenset()))


@pytest.mark.rules(17)
@pytest.mark.alone("a stateful property (hypothesis): thrashing is a run of calls, not one call")
def test_a_fixed_workload_settles_with_no_job_preempted_twice(impl: Implementation) -> None:
    """Between changes of workload, the candidate's schedule is called again and again at
    least min_run apart: no job is preempted twice, and once a call decides nothing every
    later call decides nothing; enough calls always get there."""
    impl.needs("Scheduler")

    class Workload(RuleBasedStateMachine):
        script: Any = None
        oracle: Any = None
        now = 0
        jobs = 0
        calm: tuple[int, int] | None = None  # the last hold_still block: first step, length

        @initialize(script=clusters())
        def cluster(self, script: Session) -> None:
            self.script, self.oracle = script, Model.of(script)

        def take(self, *steps: Step) -> None:
            self.script = self.script.then(*steps)
            for step in steps:
                self.oracle.step(step)

        @rule(data=st.data())
        def a_job_arrives(self, data: st.DataObject) -> None:
            self.now += 1
            self.jobs += 1
            self.take(_job(data.draw, self.oracle, f"j{self.jobs}", self.now))

        @precondition(lambda self: any(j.state == "running" for j in self.oracle.jobs.values()))
        @rule(data=st.data())
        def a_job_ends(self, data: st.DataObject) -> None:
            running = [j for j, job in self.oracle.jobs.items() if job.state == "running"]
            self.now += 1
            self.take(finish(data.draw(st.sampled_from(running)), self.now))

        @rule()
        def hold_still(self) -> None:
            calls = 2 * len(self.oracle.jobs) + 3
            first = len(self.script.steps)
            gap = self.script.min_run + 1
            steps = [schedule(self.now + gap * k) for k in range(1, calls + 1)]
            self.now += gap * calls
            self.take(*steps)
            self.calm = (first, calls)

        @precondition(lambda self: self.calm is not None)
        @invariant()
        def the_calls_settle(self) -> None:
            assert self.calm is not None  # the precondition
            first, calls = self.calm

            def settles(transcript: Any) -> bool:
                block = transcript.observations[first : first + calls]
                if len(block) != calls:
                    return False
                preempted = [j for o in block if isinstance(o, tuple) for j in o[2]]
                quiet = [i for i, o in enumerate(block) if _quiet(o)]
                return (
                    len(preempted) == len(set(preempted))
                    and bool(quiet)
                    and all(_quiet(o) for o in block[quiet[0] :])
                )

            expect_that(
                impl,
                [session(self.script)],
                settles,
                claim=f"over the last {calls} schedule calls with nothing else happening: no "
                "job preempted twice, and a call that decides nothing, then only such calls",
                rule="no thrashing: a fixed workload settles (rule 17)",
            )
            self.calm = None

    run_state_machine_as_test(Workload, settings=settings(settings.default, stateful_step_count=8))
