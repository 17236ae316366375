"""Claims: expired leases first, then the requests ready the longest, under one new lease."""

from __future__ import annotations

import pytest

from kata.impl import Implementation
from tests.support.leasing import (
    Session,
    claim,
    complete,
    expect_session,
    expired,
    fail,
    item,
    leased,
    state,
    submit,
)

pytestmark = pytest.mark.lease_claims

RULE = (
    "claim(worker, now, limit) first expires the leases that are due, then takes up to limit "
    "requests ready at now, those ready the longest first (ties by submission), under one new "
    "lease: each leased, its attempts + 1; None if none is ready; a request sent back after a "
    "failure is waiting until now + delay."
)


@pytest.mark.rules(4)
def test_a_claim_takes_up_to_its_limit_in_the_order_submitted(impl: Implementation) -> None:
    steps = [submit("a", 0), submit("b", 0), submit("c", 1), claim("w", 2, limit=2)]
    steps += [item("a"), item("c"), claim("v", 2, limit=5), claim("u", 2, limit=5)]
    want = ["ok", "ok", "ok", leased(1, "a", "b"), state("leased", 1), state("ready", 0)]
    want += [leased(2, "c"), None]
    expect_session(impl, Session.of(steps), want, rule=RULE)


@pytest.mark.rules(4)
def test_ties_go_by_submission_whatever_the_ids(impl: Implementation) -> None:
    """Ready at the same tick, the request submitted first goes first: an id is a name, not
    an order ("c" was submitted before "a", and a heap keyed by (ready, id) takes "a")."""
    steps = [submit("c", 0), submit("a", 0), submit("b", 0)]
    steps += [claim("w", 0), claim("v", 0), claim("u", 0)]
    want = ["ok", "ok", "ok", leased(1, "c"), leased(2, "a"), leased(3, "b")]
    expect_session(impl, Session.of(steps), want, rule=RULE)


@pytest.mark.rules(4)
def test_the_request_ready_longest_goes_first(impl: Implementation) -> None:
    """a fails at 1 and is ready again at 1 + its delay; b, submitted after a but ready since
    1, goes first. Random(1).randint(0, 4) is 1: a is ready at 2."""
    steps = [submit("a", 0), claim("w", 0), submit("b", 1), fail(1, "a", 1), item("a")]
    steps += [submit("c", 3), claim("v", 3, limit=3)]
    want = ["ok", leased(1, "a"), "ok", "ok", state("waiting", 1, None, "oom"), "ok"]
    want += [leased(2, "b", "a", "c")]
    expect_session(impl, Session.of(steps), want, rule=RULE)


@pytest.mark.rules(5)
def test_a_waiting_request_is_not_claimed_before_its_time(impl: Implementation) -> None:
    """Random(1).randint(0, 4) is 1: a, failed at 1, is ready at 2, not at 1."""
    steps = [submit("a", 0), claim("w", 0), fail(1, "a", 1), claim("v", 1), item("a")]
    steps += [claim("v", 2)]
    want = ["ok", leased(1, "a"), "ok", None, state("waiting", 1, None, "oom"), leased(2, "a")]
    expect_session(impl, Session.of(steps), want, rule=RULE)


@pytest.mark.rules(4, 8)
def test_a_claim_expires_the_leases_that_are_due_first(impl: Implementation) -> None:
    """w's lease of 10 ticks, unrenewed, has expired at 11: v's claim takes a back (its delay
    drawn from Random(1): 1, so ready at 12), then b."""
    steps = [submit("a", 0), claim("w", 0), submit("b", 5), claim("v", 11, limit=2)]
    steps += [item("a"), claim("u", 12)]
    want = ["ok", leased(1, "a"), "ok", leased(2, "b"), state("waiting", 1, None, "lease expired")]
    want += [leased(3, "a")]
    expect_session(impl, Session.of(steps), want, rule=RULE)


@pytest.mark.rules(4)
def test_nothing_ready_is_none(impl: Implementation) -> None:
    steps = [claim("w", 0), submit("a", 0), claim("w", 0), complete(1, "a", 0), claim("w", 1)]
    want = [None, "ok", leased(1, "a"), "ok", None]
    expect_session(impl, Session.of(steps), want, rule=RULE)


@pytest.mark.rules(8)
def test_expire_returns_what_it_sent_back(impl: Implementation) -> None:
    from tests.support.leasing import expire

    steps = [submit("a", 0), submit("b", 0), claim("w", 0, limit=2), expire(10), expire(11)]
    want = ["ok", "ok", leased(1, "a", "b"), expired(), expired("a", "b")]
    expect_session(impl, Session.of(steps), want, rule=RULE)


@pytest.mark.rules(5)
def test_a_request_is_ready_once_any_call_has_passed_its_time(impl: Implementation) -> None:
    """a, failed at 1, is ready at 2; a submission at 5 moves the clock past it."""
    steps = [submit("a", 0), claim("w", 0), fail(1, "a", 1), submit("b", 5), item("a")]
    want = ["ok", leased(1, "a"), "ok", "ok", state("ready", 1, None, "oom")]
    expect_session(impl, Session.of(steps), want, rule=RULE)
