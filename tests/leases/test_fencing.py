"""A write only from the live lease that holds the request, and only once."""

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
    fail,
    item,
    leased,
    release,
    renew,
    state,
    submit,
    succeeded,
)

pytestmark = pytest.mark.lease_fencing

RULE = (
    "complete, fail, renew and release are accepted only from a lease that has not expired "
    "(now - renewed_at <= lease_ticks, whether or not expire() ran), is not over, and holds "
    "the request; otherwise Fenced, and nothing changes; an unknown lease or request is a "
    "ValueError."
)


@pytest.mark.rules(7)
def test_a_result_is_written_once(impl: Implementation) -> None:
    steps = [submit("a", 0), submit("b", 0), claim("w", 0, limit=2), complete(1, "a", 1)]
    steps += [complete(1, "a", 2, result="again"), item("a")]
    want = ["ok", "ok", leased(1, "a", "b"), "ok", "Fenced", succeeded("a")]
    expect_session(impl, Session.of(steps), want, rule=RULE)


@pytest.mark.rules(6, 7)
def test_an_expired_lease_writes_nothing_even_before_expire_runs(impl: Implementation) -> None:
    """w's lease of 10 ticks is expired at 11: its result is refused, though nobody has
    claimed a since, and a is still leased until the expiry is handled."""
    steps = [submit("a", 0), claim("w", 0), complete(1, "a", 11), renew(1, 11), item("a")]
    steps += [expire(11)]
    want = ["ok", leased(1, "a"), "Fenced", "Fenced", state("leased", 1), expired("a")]
    expect_session(impl, Session.of(steps), want, rule=RULE)


@pytest.mark.rules(7)
def test_a_slow_worker_cannot_overwrite_the_next_claim(impl: Implementation) -> None:
    """w's lease expires at 11; v claims a again at 12 (its delay from Random(1) is 1). w's
    late result and late failure are fenced; v's result stands."""
    steps = [submit("a", 0), claim("w", 0), expire(11), claim("v", 12), complete(1, "a", 13)]
    steps += [fail(1, "a", 13), complete(2, "a", 14), item("a")]
    want = ["ok", leased(1, "a"), expired("a"), leased(2, "a"), "Fenced", "Fenced", "ok"]
    want += [state("succeeded", 2, "out:a", "lease expired")]  # the error of its last failure
    expect_session(impl, Session.of(steps), want, rule=RULE)


@pytest.mark.rules(6)
def test_renewing_keeps_a_lease_alive(impl: Implementation) -> None:
    """Renewed at 8, the lease is live until 18 and expired at 19."""
    steps = [submit("a", 0), submit("b", 0), claim("w", 0, limit=2), renew(1, 8)]
    steps += [complete(1, "a", 18), complete(1, "b", 19), item("b")]
    want = ["ok", "ok", leased(1, "a", "b"), "ok", "ok", "Fenced", state("leased", 1)]
    expect_session(impl, Session.of(steps), want, rule=RULE)


@pytest.mark.rules(6, 7)
def test_a_lease_is_over_once_every_request_it_held_has_ended(impl: Implementation) -> None:
    steps = [submit("a", 0), claim("w", 0), complete(1, "a", 1), renew(1, 2), release(1, 2)]
    want = ["ok", leased(1, "a"), "ok", "Fenced", "Fenced"]
    expect_session(impl, Session.of(steps), want, rule=RULE)


@pytest.mark.rules(6, 7)
def test_another_leases_request_is_fenced_an_unknown_one_is_a_value_error(
    impl: Implementation,
) -> None:
    steps = [submit("a", 0), submit("b", 0), claim("w", 0), claim("v", 0)]
    steps += [complete(1, "b", 1), complete(1, "nobody", 1), renew(5, 1), item("b")]
    want = ["ok", "ok", leased(1, "a"), leased(2, "b"), "Fenced", "ValueError", "ValueError"]
    want += [state("leased", 1)]
    expect_session(impl, Session.of(steps), want, rule=RULE)


@pytest.mark.rules(11)
def test_a_request_ends_once_whatever_the_stale_workers_do(impl: Implementation) -> None:
    """max_attempts 2: w's lease expires, v's attempt fails: a is dead, for good. w's late
    result, a renewal and a claim change nothing; attempts stay at 2."""
    steps = [submit("a", 0), claim("w", 0), expire(11), claim("v", 12), fail(2, "a", 13)]
    steps += [complete(1, "a", 14), renew(2, 14), claim("u", 50), item("a")]
    want = ["ok", leased(1, "a"), expired("a"), leased(2, "a"), "ok", "Fenced", "Fenced", None]
    want += [state("dead", 2, None, "oom")]
    expect_session(impl, Session.of(steps, max_attempts=2), want, rule=RULE)
