"""Credits are integers and are conserved: deposited == available + reserved + spent."""

from __future__ import annotations

import pytest

from kata.impl import Implementation
from tests.support.crediting import (
    Session,
    Step,
    balance,
    balanced,
    deposit,
    expect_session,
    finish,
    open_account,
    schedule,
    started,
    state,
    submit,
)

pytestmark = pytest.mark.credits_conservation

RULE = (
    "credits are ints; a job's cost moves from available to reserved when it starts and, when "
    "it ends, what it used to spent and the rest back to available: at every moment "
    "deposited == available + reserved + spent, and available is never negative."
)


@pytest.mark.rules(3)
def test_a_job_holds_its_cost_while_it_runs(impl: Implementation) -> None:
    steps = [open_account("a"), deposit("a", 100), submit(1, "a", 30), schedule(0), balance("a")]
    want = ["ok", "ok", "ok", started(1), balanced(70, 30, 0, 100)]
    expect_session(impl, Session.of(steps), want, rule=RULE)


@pytest.mark.rules(2, 3)
def test_what_a_job_used_is_spent_and_the_rest_comes_back(impl: Implementation) -> None:
    steps = [open_account("a"), deposit("a", 100), submit(1, "a", 30), schedule(0)]
    steps += [finish(1, 12), balance("a")]
    want = ["ok", "ok", "ok", started(1), "ok", balanced(88, 0, 12, 100)]
    expect_session(impl, Session.of(steps), want, rule=RULE)


@pytest.mark.rules(2, 3)
def test_two_jobs_cannot_both_spend_the_same_credits(impl: Implementation) -> None:
    """100 credits, two jobs of 60: the first holds 60, the second cannot start."""
    steps = [open_account("a"), deposit("a", 100), submit(1, "a", 60), submit(2, "a", 60)]
    steps += [schedule(0), balance("a")]
    want = ["ok", "ok", "ok", "ok", started(1), balanced(40, 60, 0, 100)]
    expect_session(impl, Session.of(steps, slots=2), want, rule=RULE)


@pytest.mark.rules(1)
def test_credits_beyond_a_float_are_exact(impl: Implementation) -> None:
    """10**18 + 1 credits: a float would round the 1 away (2**53 < 10**18)."""
    big = 10**18 + 1
    steps = [open_account("a"), deposit("a", big), submit(1, "a", 3), schedule(0), finish(1, 1)]
    steps += [balance("a")]
    want = ["ok", "ok", "ok", started(1), "ok", balanced(big - 1, 0, 1, big)]
    expect_session(impl, Session.of(steps), want, rule=RULE)


@pytest.mark.rules(1)
@pytest.mark.parametrize(
    "bad",
    [
        ("deposit", "a", 10.5),
        ("deposit", "a", True),
        ("submit", 2, "a", 2.5, 0),
        ("finish", 1, 1.5),
        ("finish", 1, True),
    ],
    ids=["float deposit", "bool deposit", "float cost", "float used", "bool used"],
)
def test_credits_are_ints_never_floats_or_bools(impl: Implementation, bad: Step) -> None:
    """A float (or a bool, an int in disguise) is refused wherever credits are given."""
    steps = [open_account("a"), deposit("a", 100), submit(1, "a", 30), schedule(0), bad]
    steps += [balance("a"), state(1)]
    want = ["ok", "ok", "ok", started(1), "ValueError", balanced(70, 30, 0, 100), "running"]
    expect_session(impl, Session.of(steps), want, rule=RULE)
