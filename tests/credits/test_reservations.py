"""Reservations hold a job's credits before it starts; released on expiry, release or cancel."""

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
    finish,
    open_account,
    release,
    reserve,
    schedule,
    started,
    state,
    submit,
)

pytestmark = pytest.mark.credits_reservations

RULE = (
    "reserve(job, now, ttl) moves a queued job's cost from available to reserved (ValueError "
    "if the account cannot pay); the job then starts from its reservation; the reservation "
    "ends when the job starts, on release(job) or cancel(job), or at the first schedule(now) "
    "with now >= reserved at + ttl: its credits go back to available, the job stays queued."
)
A = [open_account("a"), deposit("a", 100), submit(1, "a", 60)]
OK3 = ["ok", "ok", "ok"]


@pytest.mark.rules(6)
def test_a_reservation_holds_credits_before_the_start(impl: Implementation) -> None:
    steps = [*A, reserve(1, 0, 50), balance("a"), state(1)]
    want = [*OK3, "ok", balanced(40, 60, 0, 100), "reserved"]
    expect_session(impl, Session.of(steps), want, rule=RULE)


@pytest.mark.rules(6)
def test_reserved_credits_are_not_anyone_elses(impl: Implementation) -> None:
    """60 reserved for job 1; job 2 (50) cannot start from the 40 left."""
    steps = [*A, reserve(1, 0, 50), submit(2, "a", 50, priority=9), schedule(1)]
    want = [*OK3, "ok", "ok", started()]
    expect_session(impl, Session.of(steps, slots=2), want, rule=RULE)


@pytest.mark.rules(6, 7)
def test_a_reserved_job_starts_from_its_reservation(impl: Implementation) -> None:
    steps = [*A, reserve(1, 0, 50), schedule(1), balance("a"), state(1)]
    want = [*OK3, "ok", started(1), balanced(40, 60, 0, 100), "running"]
    expect_session(impl, Session.of(steps), want, rule=RULE)


@pytest.mark.rules(7)
def test_a_reservation_expires_at_its_time_to_live(impl: Implementation) -> None:
    """Reserved at 10 for 5 ticks, with no slot free: held at 14, released at 15."""
    steps = [open_account("b"), deposit("b", 10), submit(0, "b", 10), schedule(0)]
    steps += [*A, reserve(1, 10, 5), schedule(14), balance("a"), schedule(15), balance("a")]
    steps += [state(1)]
    want = ["ok", "ok", "ok", started(0), *OK3, "ok", started(), balanced(40, 60, 0, 100)]
    want += [started(), balanced(100, 0, 0, 100), "queued"]
    expect_session(impl, Session.of(steps), want, rule=RULE)


@pytest.mark.rules(7)
def test_release_gives_the_credits_back(impl: Implementation) -> None:
    steps = [*A, reserve(1, 0, 50), release(1), balance("a"), state(1), release(1)]
    want = [*OK3, "ok", "ok", balanced(100, 0, 0, 100), "queued", "ValueError"]
    expect_session(impl, Session.of(steps), want, rule=RULE)


@pytest.mark.rules(5, 7)
def test_cancelling_a_reserved_job_releases_its_credits(impl: Implementation) -> None:
    steps = [*A, reserve(1, 0, 50), cancel(1), balance("a"), state(1)]
    want = [*OK3, "ok", "ok", balanced(100, 0, 0, 100), "cancelled"]
    expect_session(impl, Session.of(steps), want, rule=RULE)


@pytest.mark.rules(6)
def test_a_reservation_the_account_cannot_pay_is_refused(impl: Implementation) -> None:
    steps = [*A, submit(2, "a", 50), reserve(1, 0, 50), reserve(2, 0, 50), balance("a")]
    want = [*OK3, "ok", "ok", "ValueError", balanced(40, 60, 0, 100)]
    expect_session(impl, Session.of(steps), want, rule=RULE)


@pytest.mark.rules(7)
def test_each_reservation_is_its_own(impl: Implementation) -> None:
    """The one slot is busy. Job 1 reserved at 0 for 5 ticks, released, reserved again at 1
    for 100: at 5 the first reservation's time has come, but it is gone; the second holds
    until 101."""
    busy = [open_account("b"), deposit("b", 1), submit(0, "b", 1), schedule(0)]
    steps = [*busy, *A, reserve(1, 0, 5), release(1), reserve(1, 1, 100), schedule(5)]
    steps += [balance("a"), state(1), schedule(101), balance("a"), state(1)]
    want = ["ok", "ok", "ok", started(0), *OK3, "ok", "ok", "ok", started()]
    want += [balanced(40, 60, 0, 100), "reserved", started(), balanced(100, 0, 0, 100), "queued"]
    expect_session(impl, Session.of(steps), want, rule=RULE)


@pytest.mark.rules(7)
def test_the_expiry_of_a_released_reservation_changes_nothing(impl: Implementation) -> None:
    """The one slot is busy. Job 1 reserved at 0 for 5 ticks and released: at 5 its old
    expiry gives nothing back a second time (no credit appears, none is reserved below 0)."""
    busy = [open_account("b"), deposit("b", 1), submit(0, "b", 1), schedule(0)]
    steps = [*busy, *A, reserve(1, 0, 5), release(1), schedule(5), balance("a"), state(1)]
    want = ["ok", "ok", "ok", started(0), *OK3, "ok", "ok", started()]
    want += [balanced(100, 0, 0, 100), "queued"]
    expect_session(impl, Session.of(steps), want, rule=RULE)


@pytest.mark.rules(7)
def test_the_expiry_of_a_reservation_that_started_changes_nothing(impl: Implementation) -> None:
    """Reserved at 0 for 5, started at 1, finished: at 5 its old expiry releases nothing."""
    steps = [*A, reserve(1, 0, 5), schedule(1), finish(1, 60), schedule(5), balance("a")]
    want = [*OK3, "ok", started(1), "ok", started(), balanced(40, 0, 60, 100)]
    expect_session(impl, Session.of(steps), want, rule=RULE)


@pytest.mark.rules(7)
def test_a_reservation_lasts_exactly_now_plus_ttl(impl: Implementation) -> None:
    """Reserved at 11 for 5 ticks, with no slot free: held at 15, released at 16 (11 + 5).
    Not at 15 (11 | 5) or at 14 (11 ^ 5): the time to live is added to the time reserved."""
    steps = [open_account("b"), deposit("b", 10), submit(0, "b", 10), schedule(0)]
    steps += [*A, reserve(1, 11, 5), schedule(14), schedule(15), state(1), schedule(16)]
    steps += [state(1)]
    want = ["ok", "ok", "ok", started(0), *OK3, "ok", started(), started(), "reserved"]
    want += [started(), "queued"]
    expect_session(impl, Session.of(steps), want, rule=RULE)


@pytest.mark.rules(7)
def test_a_reservation_long_past_its_time_is_released(impl: Implementation) -> None:
    """Reserved at 0 for 5 ticks, no schedule until 1000: the first one releases it."""
    steps = [open_account("b"), deposit("b", 10), submit(0, "b", 10), schedule(0)]
    steps += [*A, reserve(1, 0, 5), schedule(1000), balance("a"), state(1)]
    want = ["ok", "ok", "ok", started(0), *OK3, "ok", started(), balanced(100, 0, 0, 100)]
    want += ["queued"]
    expect_session(impl, Session.of(steps), want, rule=RULE)


@pytest.mark.rules(7)
def test_only_the_reservations_whose_time_has_come_are_released(impl: Implementation) -> None:
    """Job 1 reserved until 10, job 2 (reserved after it) until 20: at 15 only job 1's
    reservation ends, whichever was made first or last."""
    busy = [open_account("b"), deposit("b", 10), submit(0, "b", 10), schedule(0)]
    steps = [*busy, *A, submit(2, "a", 30), reserve(2, 0, 20), reserve(1, 0, 10), schedule(15)]
    steps += [state(1), state(2), balance("a")]
    want = ["ok", "ok", "ok", started(0), *OK3, "ok", "ok", "ok", started()]
    want += ["queued", "reserved", balanced(70, 30, 0, 100)]
    expect_session(impl, Session.of(steps), want, rule=RULE)


@pytest.mark.rules(6)
def test_a_reservation_of_exactly_what_is_available_is_honoured(impl: Implementation) -> None:
    """100 credits, a job of 60 reserved, then one of exactly the 40 left."""
    steps = [*A, submit(2, "a", 40), reserve(1, 0, 50), reserve(2, 0, 50), balance("a")]
    want = [*OK3, "ok", "ok", "ok", balanced(0, 100, 0, 100)]
    expect_session(impl, Session.of(steps), want, rule=RULE)
