"""Refunds: a job that fails or is cancelled gives back what it did not use, once."""

from __future__ import annotations

import pytest

from kata.impl import Implementation
from tests.support.crediting import (
    Session,
    balance,
    balanced,
    cancel,
    deposit,
    expect_session,
    fail,
    finish,
    open_account,
    reserve,
    schedule,
    started,
    state,
    submit,
)

pytestmark = pytest.mark.credits_refunds

RULE = (
    "fail(job, used) and cancel(job, used) of a running job spend `used` and refund cost - used; "
    "a job that never ran is cancelled with nothing spent; a job ends once: ending it again "
    "is a ValueError, and refunds nothing more."
)
RUNNING = [open_account("a"), deposit("a", 100), submit(1, "a", 40), schedule(0)]
RAN = ["ok", "ok", "ok", started(1)]


@pytest.mark.rules(3, 5)
def test_a_failed_job_refunds_what_it_did_not_use(impl: Implementation) -> None:
    steps = [*RUNNING, fail(1, 15), balance("a"), state(1)]
    want = [*RAN, "ok", balanced(85, 0, 15, 100), "failed"]
    expect_session(impl, Session.of(steps), want, rule=RULE)


@pytest.mark.rules(3, 5)
def test_a_cancelled_running_job_refunds_what_it_did_not_use(impl: Implementation) -> None:
    steps = [*RUNNING, cancel(1, 25), balance("a"), state(1)]
    want = [*RAN, "ok", balanced(75, 0, 25, 100), "cancelled"]
    expect_session(impl, Session.of(steps), want, rule=RULE)


@pytest.mark.rules(3, 5)
def test_a_refund_is_paid_once(impl: Implementation) -> None:
    """Failed, then cancelled, then finished: the second and third end nothing."""
    steps = [*RUNNING, fail(1, 10), cancel(1, 0), finish(1, 0), balance("a")]
    want = [*RAN, "ok", "ValueError", "ValueError", balanced(90, 0, 10, 100)]
    expect_session(impl, Session.of(steps), want, rule=RULE)


@pytest.mark.rules(5)
def test_a_job_cancelled_before_it_ran_costs_nothing(impl: Implementation) -> None:
    steps = [open_account("a"), deposit("a", 100), submit(1, "a", 40), cancel(1), balance("a")]
    steps += [schedule(0), state(1)]
    want = ["ok", "ok", "ok", "ok", balanced(100, 0, 0, 100), started(), "cancelled"]
    expect_session(impl, Session.of(steps), want, rule=RULE)


@pytest.mark.rules(3, 5)
def test_a_job_may_use_all_of_its_cost_and_no_more(impl: Implementation) -> None:
    steps = [*RUNNING, finish(1, 41), finish(1, 40), balance("a")]
    want = [*RAN, "ValueError", "ok", balanced(60, 0, 40, 100)]
    expect_session(impl, Session.of(steps), want, rule=RULE)


@pytest.mark.rules(5)
def test_a_reserved_job_that_never_ran_cannot_be_charged(impl: Implementation) -> None:
    """cancel(job, used=3) of a reserved job is refused: it never ran; its reservation stays."""
    steps = [open_account("a"), deposit("a", 100), submit(1, "a", 40), reserve(1, 0, 10)]
    steps += [cancel(1, 3), balance("a"), state(1)]
    want = ["ok", "ok", "ok", "ok", "ValueError", balanced(60, 40, 0, 100), "reserved"]
    expect_session(impl, Session.of(steps), want, rule=RULE)


@pytest.mark.rules(5, 13)
def test_a_running_job_cancelled_frees_its_slot(impl: Implementation) -> None:
    """One slot: job 1 runs and is cancelled, having used 2; job 2 starts in its place."""
    steps = [*RUNNING, cancel(1, 2), submit(2, "a", 10), schedule(1), balance("a")]
    want = [*RAN, "ok", "ok", started(2), balanced(88, 10, 2, 100)]
    expect_session(impl, Session.of(steps), want, rule=RULE)
