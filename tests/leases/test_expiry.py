"""A lease expires when now - renewed_at > lease_ticks: exactly lease_ticks late is live."""

from __future__ import annotations

import pytest

from kata.impl import Implementation
from tests.support.leasing import (
    Session,
    claim,
    complete,
    expect_session,
    expire,
    expired,
    item,
    leased,
    renew,
    state,
    submit,
)

pytestmark = pytest.mark.lease_expiry

RULE = (
    "a lease expires when now - renewed_at > lease_ticks (the detector's boundary: exactly "
    "lease_ticks after its last renewal it is live); expire(now) ends every expired lease and "
    "fails each request it still held with the error 'lease expired', and returns them."
)


@pytest.mark.rules(8)
def test_exactly_lease_ticks_after_the_claim_the_lease_is_live(impl: Implementation) -> None:
    steps = [submit("a", 0), claim("w", 0), expire(10), complete(1, "a", 10), item("a")]
    want = ["ok", leased(1, "a"), expired(), "ok", state("succeeded", 1, "out:a")]
    expect_session(impl, Session.of(steps), want, rule=RULE)


@pytest.mark.rules(8)
def test_one_tick_more_and_it_has_expired(impl: Implementation) -> None:
    steps = [submit("a", 0), claim("w", 0), expire(11), item("a")]
    want = ["ok", leased(1, "a"), expired("a"), state("waiting", 1, None, "lease expired")]
    expect_session(impl, Session.of(steps), want, rule=RULE)


@pytest.mark.rules(8)
def test_the_boundary_counts_from_the_last_renewal(impl: Implementation) -> None:
    steps = [submit("a", 0), claim("w", 0), renew(1, 7), expire(17), expire(18)]
    want = ["ok", leased(1, "a"), "ok", expired(), expired("a")]
    expect_session(impl, Session.of(steps), want, rule=RULE)


@pytest.mark.rules(1, 8)
def test_the_boundary_holds_at_the_largest_times(impl: Implementation) -> None:
    """lease_ticks 2**62: one tick past it has expired, though (2**62 + 1) / 2**62 is 1.0
    in a float; integers compare exactly at any size."""
    big = 2**62
    steps = [submit("a", 0), claim("w", 0), expire(big), expire(big + 1)]
    want = ["ok", leased(1, "a"), expired(), expired("a")]
    expect_session(impl, Session.of(steps, lease_ticks=big), want, rule=RULE)


@pytest.mark.rules(8)
def test_expiry_returns_only_what_the_lease_still_held(impl: Implementation) -> None:
    steps = [submit("a", 0), submit("b", 0), claim("w", 0, limit=2), complete(1, "a", 5)]
    steps += [expire(11), expire(12), item("a")]
    want = ["ok", "ok", leased(1, "a", "b"), "ok", expired("b"), expired()]
    want += [state("succeeded", 1, "out:a")]
    expect_session(impl, Session.of(steps), want, rule=RULE)


@pytest.mark.rules(8, 9)
def test_an_expiry_at_the_last_attempt_is_a_dead_letter(impl: Implementation) -> None:
    steps = [submit("a", 0), claim("w", 0), expire(11), item("a")]
    want = ["ok", leased(1, "a"), expired("a"), state("dead", 1, None, "lease expired")]
    expect_session(impl, Session.of(steps, max_attempts=1), want, rule=RULE)
