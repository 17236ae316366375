"""Concurrency limits: at most max_running running jobs per account, counted when they run."""

from __future__ import annotations

import pytest

from kata.impl import Implementation
from tests.support.crediting import (
    Session,
    deposit,
    expect_session,
    finish,
    open_account,
    reserve,
    schedule,
    started,
    submit,
)

pytestmark = [pytest.mark.credits_limits, pytest.mark.rules(13)]

RULE = (
    "an account with max_running jobs running starts no more until one ends; only running "
    "jobs count (a queued or reserved job does not); the other accounts are not held up."
)


def test_an_account_runs_at_most_its_limit(impl: Implementation) -> None:
    steps = [open_account("a", max_running=2), deposit("a", 100)]
    steps += [submit(j, "a", 1) for j in range(4)] + [schedule(0), finish(0, 1), schedule(1)]
    want = ["ok", "ok", *["ok"] * 4, started(0, 1), "ok", started(2)]
    expect_session(impl, Session.of(steps, slots=4), want, rule=RULE)


def test_an_account_at_its_limit_does_not_hold_up_the_others(impl: Implementation) -> None:
    steps = [
        open_account("a", max_running=1),
        deposit("a", 100),
        open_account("b"),
        deposit("b", 9),
    ]
    steps += [submit(1, "a", 1, priority=9), submit(2, "a", 1, priority=9), submit(3, "b", 1)]
    steps += [schedule(0)]
    want = ["ok"] * 4 + ["ok"] * 3 + [started(1, 3)]
    expect_session(impl, Session.of(steps, slots=3), want, rule=RULE)


def test_a_reservation_is_not_a_running_job(impl: Implementation) -> None:
    """Limit 1: a job reserved but not started leaves room for the account's head to run."""
    steps = [open_account("a", max_running=1), deposit("a", 100)]
    steps += [submit(1, "a", 5, priority=9), submit(2, "a", 5), reserve(2, 0, 50), schedule(1)]
    want = ["ok", "ok", "ok", "ok", "ok", started(1)]
    expect_session(impl, Session.of(steps, slots=2), want, rule=RULE)


def test_no_more_jobs_run_than_there_are_slots(impl: Implementation) -> None:
    """Two accounts with credits for ten jobs each and three slots: three jobs run."""
    steps = [open_account("a"), deposit("a", 10), open_account("b"), deposit("b", 10)]
    steps += [submit(f"{n}{i}", n, 1) for n in "ab" for i in range(3)] + [schedule(0)]
    want = ["ok"] * 4 + ["ok"] * 6 + [started("a0", "a1", "a2")]
    expect_session(impl, Session.of(steps, slots=3), want, rule=RULE)
