"""An operation that cannot be honoured raises ValueError and changes nothing."""

from __future__ import annotations

import pytest

from kata.checks import expect_value_error
from kata.impl import Implementation
from tests.support.crediting import (
    Session,
    Step,
    balance,
    balanced,
    cancel,
    construction,
    deposit,
    expect_session,
    fail,
    finish,
    open_account,
    release,
    reserve,
    schedule,
    started,
    state,
    submit,
)

pytestmark = pytest.mark.credits_errors

RULE = (
    "every operation that cannot be honoured raises ValueError and leaves every balance and "
    "every job's state as it was."
)
SETUP = [open_account("a"), deposit("a", 100), submit(1, "a", 40), submit(2, "a", 30)]
SETUP += [schedule(0)]
DONE = ["ok", "ok", "ok", "ok", started(1)]


@pytest.mark.rules(4, 5, 14)
@pytest.mark.parametrize(
    "bad",
    [
        open_account("a"),
        open_account("z", weight=0),
        open_account("z", max_running=0),
        deposit("nobody", 5),
        deposit("a", 0),
        submit(1, "a", 5),
        submit(9, "nobody", 5),
        submit(9, "a", 0),
        reserve(1, 5, 10),
        reserve(2, 5, 0),
        reserve(9, 5, 10),
        release(2),
        finish(2, 0),
        finish(1, 41),
        fail(1, -1),
        cancel(2, 5),
        cancel(2, -1),
        cancel(9),
        schedule(-1),
        state(9),
        balance("nobody"),
    ],
    ids=lambda step: "-".join(map(str, step)),
)
def test_an_impossible_operation_changes_nothing(impl: Implementation, bad: Step) -> None:
    """After the refusal, the balance and the jobs are as they were, and the clock too: a
    schedule at 0 is still on time, whatever time the refused call named."""
    after = [balance("a"), state(1), state(2), schedule(0)]
    want = [*DONE, "ValueError", balanced(60, 40, 0, 100), "running", "queued", started()]
    expect_session(impl, Session.of([*SETUP, bad, *after]), want, rule=RULE)


@pytest.mark.rules(6, 14, 15)
def test_a_reservation_refused_for_its_cost_moves_no_clock(impl: Implementation) -> None:
    """Job 3 costs 70, and the account has 60: reserving it at 30 is refused, so 30 has
    not passed, and a schedule at 27 is on time."""
    steps = [*SETUP, submit(3, "a", 70), reserve(3, 30, 5), schedule(27), state(3)]
    want = [*DONE, "ok", "ValueError", started(), "queued"]
    expect_session(impl, Session.of(steps), want, rule=RULE)


@pytest.mark.rules(15)
def test_time_may_stand_still_but_never_go_back(impl: Implementation) -> None:
    steps = [*SETUP, reserve(2, 0, 5), schedule(0), schedule(-1), submit(3, "a", 1)]
    steps += [reserve(3, -1, 5), reserve(3, 0, 5)]
    want = [*DONE, "ok", started(), "ValueError", "ok", "ValueError", "ok"]
    expect_session(impl, Session.of(steps), want, rule=RULE)


@pytest.mark.rules(4, 14)
def test_the_id_of_a_job_that_ended_is_still_taken(impl: Implementation) -> None:
    """Job 1 finished; another job 1 is refused, and nothing of it starts later."""
    steps = [*SETUP, finish(1, 5), submit(1, "a", 7, priority=9), schedule(1), balance("a")]
    want = [*DONE, "ok", "ValueError", started(2), balanced(65, 30, 5, 100)]
    expect_session(impl, Session.of(steps), want, rule=RULE)


@pytest.mark.rules(14)
def test_a_refused_duplicate_leaves_nothing_for_a_later_schedule(impl: Implementation) -> None:
    """Job 2 (priority 0) and job 3 (priority 5) wait; a second job 2 with priority 9 is
    refused: when the slot frees, job 3 goes first, as if the refused job never came."""
    steps = [*SETUP, submit(3, "a", 10, priority=5), submit(2, "a", 5, priority=9)]
    steps += [finish(1, 0), schedule(1), balance("a")]
    want = [*DONE, "ok", "ValueError", "ok", started(3), balanced(90, 10, 0, 100)]
    expect_session(impl, Session.of(steps), want, rule=RULE)


@pytest.mark.rules(7, 15)
def test_a_schedule_refused_for_going_back_releases_nothing(impl: Implementation) -> None:
    """Job 2 is reserved at 20 for 5 ticks, job 3 at 30: at schedule(27) job 2's time has
    come, but 27 is before 30: the call is refused, and job 2's reservation stands."""
    steps = [*SETUP, submit(3, "a", 10), reserve(2, 20, 5), reserve(3, 30, 100)]
    steps += [schedule(27), state(2), balance("a")]
    want = [*DONE, "ok", "ok", "ok", "ValueError", "reserved", balanced(20, 80, 0, 100)]
    expect_session(impl, Session.of(steps), want, rule=RULE)


@pytest.mark.rules(14)
def test_a_refused_submission_leaves_no_trace(impl: Implementation) -> None:
    """A job of cost 0 is refused: its id is unknown after it, and free for a valid job."""
    steps = [open_account("a"), deposit("a", 10), submit("x", "a", 0), state("x")]
    steps += [submit("x", "a", 5), state("x")]
    want = ["ok", "ok", "ValueError", "ValueError", "ok", "queued"]
    expect_session(impl, Session.of(steps), want, rule=RULE)


@pytest.mark.rules(14)
@pytest.mark.parametrize("slots", [0, -3])
def test_a_scheduler_without_a_slot_is_refused(impl: Implementation, slots: int) -> None:
    """The scheduler checks its configuration itself: the record it is given is plain."""
    expect_value_error(impl, construction(slots), f"a scheduler of {slots} slots")
