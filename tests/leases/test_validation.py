"""Integers, a configuration that makes sense, and refusals that change nothing."""

from __future__ import annotations

from typing import Any

import pytest

from kata.checks import expect_value_error
from kata.impl import Implementation
from tests.support.leasing import (
    Session,
    Step,
    claim,
    complete,
    construction,
    expect_session,
    expire,
    fail,
    item,
    leased,
    release,
    renew,
    state,
    submit,
)

pytestmark = pytest.mark.lease_validation

RULE = (
    "every number is an int, never a float or a bool; lease_ticks, max_attempts and base at "
    "least 1, cap at least base; a request id is used once; time never goes back (a refused "
    "call's time has not passed); an operation that raises changes nothing."
)
SETUP = [submit("a", 0), submit("b", 0), claim("w", 0, limit=1)]
DONE = ["ok", "ok", leased(1, "a")]


@pytest.mark.rules(1)
@pytest.mark.parametrize(
    ("settings", "problem"),
    [
        ({"lease_ticks": 0, "max_attempts": 3, "base": 1, "cap": 5}, "a lease of 0 ticks"),
        ({"lease_ticks": 5, "max_attempts": 0, "base": 1, "cap": 5}, "no attempt at all"),
        ({"lease_ticks": 5, "max_attempts": 3, "base": 0, "cap": 5}, "a base of 0"),
        ({"lease_ticks": 5, "max_attempts": 3, "base": 6, "cap": 5}, "a cap below the base"),
        ({"lease_ticks": 5.0, "max_attempts": 3, "base": 1, "cap": 5}, "a float lease"),
        ({"lease_ticks": 5, "max_attempts": True, "base": 1, "cap": 5}, "a bool of attempts"),
    ],
)
def test_a_queue_that_makes_no_sense_is_refused(
    impl: Implementation, settings: dict[str, Any], problem: str
) -> None:
    expect_value_error(impl, construction(**settings), problem)


@pytest.mark.rules(1)
def test_a_cap_equal_to_the_base_is_a_queue(impl: Implementation) -> None:
    """cap 4 and base 4: a cap not below the base, so a queue whose every wait is
    randint(0, 4), whatever the attempt. a fails at 0: ready by 4 at the latest, so a
    claim at 9 takes it again."""
    steps = [submit("a", 0), claim("w", 0), fail(1, "a", 0), claim("w", 9)]
    want = ["ok", leased(1, "a"), "ok", leased(2, "a")]
    expect_session(impl, Session.of(steps, base=4, cap=4), want, rule=RULE)


@pytest.mark.rules(1, 2, 3, 6)
@pytest.mark.parametrize(
    "bad",
    [
        submit("a", 1),  # an id used before
        submit("c", -1),  # time gone back
        submit("c", 0.5),  # type: ignore[arg-type]  # a float time, on purpose
        claim("w", 1, limit=0),
        claim("w", 1, limit=True),
        renew(9, 1),  # a lease never claimed
        complete(1, "nobody", 1),
        fail(1, "a", 1, error=None),  # type: ignore[arg-type]  # not a str, on purpose
        release(1, -1),
        expire(-1),
        item("nobody"),
        # A bool is not a time, in any method: each refused, and its time has not passed.
        submit("c", True),
        claim("w", True, limit=1),
        renew(1, True),
        complete(1, "a", True),
        fail(1, "a", True),
        release(1, True),
        expire(True),
    ],
    ids=lambda step: "-".join(map(str, step)),
)
def test_an_impossible_operation_changes_nothing(impl: Implementation, bad: Step) -> None:
    """After the refusal, both requests are as they were, the lease still holds a (its
    result is taken), and the clock has not moved: a submit at 0 is still on time."""
    after = [item("a"), item("b"), submit("d", 0), complete(1, "a", 0)]
    want = [*DONE, "ValueError", state("leased", 1), state("ready", 0), "ok", "ok"]
    expect_session(impl, Session.of([*SETUP, bad, *after]), want, rule=RULE)


@pytest.mark.rules(2)
def test_the_id_of_a_request_that_ended_is_still_taken(impl: Implementation) -> None:
    steps = [*SETUP, complete(1, "a", 1), submit("a", 2), item("a")]
    want = [*DONE, "ok", "ValueError", state("succeeded", 1, "out:a")]
    expect_session(impl, Session.of(steps), want, rule=RULE)


@pytest.mark.rules(1, 3)
def test_the_time_of_a_refused_call_has_not_passed(impl: Implementation) -> None:
    """Refused at 50 (a duplicate id, an unknown lease, a claim of 0, a late result): the
    clock stays at 0, and the refused claim expired nothing."""
    steps = [*SETUP, submit("a", 50), renew(7, 50), claim("w", 50, limit=0)]
    steps += [complete(1, "a", 50), item("a"), submit("c", 5), item("c")]
    want = [*DONE, "ValueError", "ValueError", "ValueError", "Fenced", state("leased", 1)]
    want += ["ok", state("ready", 0)]
    expect_session(impl, Session.of(steps), want, rule=RULE)
