"""Any sequence of operations, against the brute-force model; credits conserved throughout.

Sessions are drawn step by step beside the model, whose state says which
operations make sense (mostly), with a share of impossible ones, which must
raise ValueError and change nothing.  Every few steps every balance is
read, so conservation and no overspending are checked on the way, not only
at the end.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from kata.checks import expect_that
from kata.impl import Implementation
from tests.support.crediting import (
    Model,
    Session,
    Step,
    balance,
    cancel,
    deposit,
    expect_session,
    fail,
    finish,
    open_account,
    release,
    reserve,
    schedule,
    session,
    state,
    submit,
)

pytestmark = [pytest.mark.credits_model, pytest.mark.rules(2, 3, 4, 5, 6, 7, 8, 9, 10, 13, 14)]

RULE = "the contract, operation by operation: see variants/credits/README.md"
NAMES = ["a", "b", "c"]
ACTIONS = ["submit"] * 5 + ["schedule"] * 4 + ["end"] * 4 + ["reserve"] * 2 + ["deposit"] * 2
ACTIONS += ["cancel", "release", "look"]


@st.composite
def sessions(draw: st.DrawFn) -> Session:
    slots, fair = draw(st.integers(1, 3)), draw(st.booleans())
    oracle, steps, now, jobs = Model(slots, fair), list[Step](), 0, 0

    def take(step: Step) -> None:
        steps.append(step)
        oracle.step(step)

    for name in NAMES:
        take(open_account(name, draw(st.integers(1, 3)), draw(st.none() | st.integers(1, 2))))
        take(deposit(name, draw(st.integers(0, 40))))
    for action in draw(st.lists(st.sampled_from(ACTIONS), min_size=5, max_size=40)):
        known = list(oracle.jobs) or ["nobody"]
        if action == "submit":
            cost = draw(st.integers(0, 15))  # 0: refused
            take(submit(f"j{jobs}", draw(st.sampled_from(NAMES)), cost, draw(st.integers(0, 2))))
            jobs += 1
        elif action == "schedule":
            now += draw(st.integers(0, 6))
            take(schedule(now))
        elif action == "end":
            running = [j for j, job in oracle.jobs.items() if job.state == "running"] or known
            job = draw(st.sampled_from(running))
            used = draw(st.integers(0, 16))
            take(draw(st.sampled_from([finish, fail, cancel]))(job, used))
        elif action == "reserve":
            now += draw(st.integers(0, 3))
            take(reserve(draw(st.sampled_from(known)), now, draw(st.integers(1, 8))))
        elif action == "deposit":
            take(deposit(draw(st.sampled_from(NAMES)), draw(st.integers(1, 30))))
        elif action == "cancel":
            take(cancel(draw(st.sampled_from(known))))
        elif action == "release":
            take(release(draw(st.sampled_from(known))))
        else:
            take(state(draw(st.sampled_from(known))))
        if len(steps) % 5 == 0:
            for name in NAMES:
                take(balance(name))
    for name in NAMES:
        take(balance(name))
    return Session.of(steps, slots=slots, fair=fair)


@given(sessions())
def test_every_session_matches_the_model(impl: Implementation, script: Session) -> None:
    model = Model(script.slots, script.fair)
    expect_session(impl, script, [model.step(step) for step in script.steps], rule=RULE)


@given(sessions())
def test_credits_are_conserved_and_never_overspent(impl: Implementation, script: Session) -> None:
    """Every balance read: deposited = available + reserved + spent, nothing negative."""

    def conserved(transcript: Any) -> bool:
        for seen in transcript.observations:
            if isinstance(seen, tuple) and seen[:1] == ("balance",):
                available, reserved, spent, deposited = seen[1]
                if min(seen[1]) < 0 or deposited != available + reserved + spent:
                    return False
        return len(transcript.observations) == len(script.steps)

    expect_that(
        impl,
        [session(script)],
        conserved,
        claim="deposited == available + reserved + spent, and none negative, at every reading",
        rule="credits live in exactly one place; an account never spends what it does not have",
    )
