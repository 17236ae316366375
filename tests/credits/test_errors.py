"""An operation that cannot be honoured raises ValueError and changes nothing."""

from __future__ import annotations

import pytest

from tests.support.crediting import (
    Session,
    Step,
    balance,
    balanced,
    cancel,
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
from tests.support.impl import Implementation

pytestmark = pytest.mark.credits_errors

RULE = (
    "every operation that cannot be honoured raises ValueError and leaves every balance and "
    "every job's state as it was."
)
SETUP = [open_account("a"), deposit("a", 100), submit(1, "a", 40), submit(2, "a", 30)]
SETUP += [schedule(0)]
DONE = ["ok", "ok", "ok", "ok", started(1)]


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
        cancel(9),
        schedule(-1),
        state(9),
        balance("nobody"),
    ],
    ids=lambda step: "-".join(map(str, step)),
)
def test_an_impossible_operation_changes_nothing(impl: Implementation, bad: Step) -> None:
    after = [balance("a"), state(1), state(2)]
    want = [*DONE, "ValueError", balanced(60, 40, 0, 100), "running", "queued"]
    expect_session(impl, Session.of([*SETUP, bad, *after]), want, rule=RULE)


def test_time_may_stand_still_but_never_go_back(impl: Implementation) -> None:
    steps = [*SETUP, reserve(2, 0, 5), schedule(0), schedule(-1), submit(3, "a", 1)]
    steps += [reserve(3, -1, 5), reserve(3, 0, 5)]
    want = [*DONE, "ok", started(), "ValueError", "ok", "ValueError", "ok"]
    expect_session(impl, Session.of(steps), want, rule=RULE)
