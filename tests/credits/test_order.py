"""Order: higher priority, then first submitted; strict within an account, best effort across."""

from __future__ import annotations

import pytest

from kata.impl import Implementation
from tests.support.crediting import (
    Session,
    cancel,
    deposit,
    expect_session,
    finish,
    open_account,
    schedule,
    started,
    submit,
)

pytestmark = pytest.mark.credits_order

RULE = (
    "schedule(now) starts jobs while a slot is free: the next is the head job (highest "
    "priority, then first submitted) of the account whose head comes first; an account whose "
    "head cannot start (too few credits, or max_running reached) starts nothing this time, "
    "and never blocks the other accounts (best effort across accounts, strict within one)."
)
RICH = [open_account("a"), deposit("a", 100), open_account("b"), deposit("b", 100)]
OK4 = ["ok"] * 4


@pytest.mark.rules(8, 10)
def test_higher_priority_first_then_first_submitted(impl: Implementation) -> None:
    steps = [
        *RICH,
        submit(1, "a", 1),
        submit(2, "b", 1, priority=5),
        submit(3, "a", 1),
        schedule(0),
    ]
    want = [*OK4, "ok", "ok", "ok", started(2, 1, 3)]
    expect_session(impl, Session.of(steps, slots=3), want, rule=RULE)


@pytest.mark.rules(13)
def test_slots_bound_how_many_run(impl: Implementation) -> None:
    steps = [*RICH, *(submit(j, "a", 1) for j in range(4)), schedule(0), finish(0, 1), schedule(1)]
    want = [*OK4, *["ok"] * 4, started(0, 1), "ok", started(2)]
    expect_session(impl, Session.of(steps, slots=2), want, rule=RULE)


@pytest.mark.rules(9)
def test_an_account_that_cannot_pay_does_not_block_the_others(impl: Implementation) -> None:
    """a's head costs 500 of its 100: a starts nothing, b's later, cheaper job starts."""
    steps = [*RICH, submit("big", "a", 500, priority=9), submit("small", "b", 10), schedule(0)]
    want = [*OK4, "ok", "ok", started("small")]
    expect_session(impl, Session.of(steps, slots=2), want, rule=RULE)


@pytest.mark.rules(8)
def test_within_an_account_the_head_goes_first_or_nothing_does(impl: Implementation) -> None:
    """a's head costs 500; its cheaper job behind it waits: no job overtakes its owner's
    higher-priority job forever (it would, each time the balance is spent on small ones)."""
    steps = [*RICH, submit("big", "a", 500, priority=9), submit("cheap", "a", 10), schedule(0)]
    want = [*OK4, "ok", "ok", started()]
    expect_session(impl, Session.of(steps, slots=2), want, rule=RULE)


@pytest.mark.rules(8)
def test_the_head_starts_once_it_can_be_paid(impl: Implementation) -> None:
    steps = [*RICH, submit("big", "a", 150), submit("next", "a", 10), schedule(0)]
    steps += [deposit("a", 50), schedule(1)]
    want = [*OK4, "ok", "ok", started(), "ok", started("big")]
    expect_session(impl, Session.of(steps, slots=1), want, rule=RULE)


@pytest.mark.rules(10)
def test_ties_in_priority_go_by_submission_not_by_id(impl: Implementation) -> None:
    """Ids 'z' then 'a', submitted in that order: 'z' first."""
    steps = [*RICH, submit("z", "a", 1), submit("m", "b", 1), submit("a", "a", 1), schedule(0)]
    want = [*OK4, "ok", "ok", "ok", started("z", "m", "a")]
    expect_session(impl, Session.of(steps, slots=3), want, rule=RULE)


@pytest.mark.rules(10)
def test_nothing_to_start_starts_nothing(impl: Implementation) -> None:
    steps = [*RICH, schedule(0), schedule(5)]
    want = [*OK4, started(), started()]
    expect_session(impl, Session.of(steps, slots=3), want, rule=RULE)


@pytest.mark.rules(8, 10)
def test_an_account_whose_head_was_cancelled_is_ranked_by_its_next_job(
    impl: Implementation,
) -> None:
    """a's head (priority 9) is cancelled: a now ranks by its next job (priority 0), so b's
    job (priority 5) comes first."""
    steps = [*RICH, submit("a1", "a", 1, priority=9), submit("a2", "a", 1)]
    steps += [submit("b1", "b", 1, priority=5), cancel("a1"), schedule(0)]
    want = [*OK4, "ok", "ok", "ok", "ok", started("b1", "a2")]
    expect_session(impl, Session.of(steps, slots=2), want, rule=RULE)


@pytest.mark.rules(8, 10)
def test_priorities_are_compared_by_value(impl: Implementation) -> None:
    """Priorities 3 then 7 in one account, 5 in another: 7, 5, 3. A sort key that only
    tells zero from nonzero (`not priority`) would start them as submitted."""
    steps = [*RICH, submit("a3", "a", 1, priority=3), submit("a7", "a", 1, priority=7)]
    steps += [submit("b5", "b", 1, priority=5), schedule(0)]
    want = [*OK4, "ok", "ok", "ok", started("a7", "b5", "a3")]
    expect_session(impl, Session.of(steps, slots=3), want, rule=RULE)


@pytest.mark.rules(8, 10)
def test_the_default_priority_is_zero(impl: Implementation) -> None:
    """A job given no priority ranks as priority 0: after one of priority 1, before one of
    priority -1, whatever the order submitted."""
    steps = [*RICH, submit("low", "a", 1, priority=-1), submit("plain", "b", 1)]
    steps += [submit("high", "a", 1, priority=1), schedule(0)]
    want = [*OK4, "ok", "ok", "ok", started("high", "plain", "low")]
    expect_session(impl, Session.of(steps, slots=3), want, rule=RULE)
