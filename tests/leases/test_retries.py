"""A failed attempt waits out full jitter, then a dead letter with the last error; a release
gives the attempt back."""

from __future__ import annotations

import pytest

from kata.impl import Implementation
from tests.support.leasing import (
    TOP,
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
)

pytestmark = pytest.mark.lease_retries

RULE = (
    "a failed attempt (fail, or an expired lease) of a request with attempts < max_attempts "
    "waits, ready at now + rng.randint(0, min(cap, base * 2 ** (attempts - 1))), one draw per "
    "failure in the order handled (expire: leases in the order claimed, each in its order); "
    "at max_attempts it is dead with its last error; release() makes what the lease holds "
    "ready now, its attempt not counted."
)


@pytest.mark.rules(9)
def test_each_retry_waits_full_jitter_of_its_attempt(impl: Implementation) -> None:
    """base 4, cap 10, Random(1): randint(0, 4) = 1, randint(0, 8) = 1, randint(0, 10) = 4.
    a fails at 0 (ready at 1), at 1 (ready at 2), at 2 (ready at 6, not 5)."""
    steps = [submit("a", 0), claim("w", 0), fail(1, "a", 0), claim("w", 1), fail(2, "a", 1)]
    steps += [claim("w", 2), fail(3, "a", 2), claim("w", 5), claim("w", 6)]
    want = ["ok", leased(1, "a"), "ok", leased(2, "a"), "ok", leased(3, "a"), "ok", None]
    want += [leased(4, "a")]
    expect_session(impl, Session.of(steps, max_attempts=5, cap=10), want, rule=RULE)


@pytest.mark.rules(9)
def test_after_the_last_attempt_a_dead_letter_with_its_error(impl: Implementation) -> None:
    steps = [submit("a", 0), claim("w", 0), fail(1, "a", 0, error="timeout"), claim("w", 1)]
    steps += [fail(2, "a", 1, error="out of memory"), claim("w", 50), item("a")]
    want = ["ok", leased(1, "a"), "ok", leased(2, "a"), "ok", None]
    want += [state("dead", 2, None, "out of memory")]
    expect_session(impl, Session.of(steps, max_attempts=2), want, rule=RULE)


@pytest.mark.rules(9)
def test_a_success_keeps_the_error_of_the_attempt_that_failed(impl: Implementation) -> None:
    """a fails with "timeout" at 0 and waits randint(0, 4) = 1 (Random(1)); claimed again
    at 1, it succeeds: succeeded after 2 attempts, and its error is still "timeout"."""
    steps = [submit("a", 0), claim("w", 0), fail(1, "a", 0, error="timeout"), claim("w", 1)]
    steps += [complete(2, "a", 1), item("a")]
    want = ["ok", leased(1, "a"), "ok", leased(2, "a"), "ok"]
    want += [state("succeeded", 2, "out:a", "timeout")]
    expect_session(impl, Session.of(steps), want, rule=RULE)


@pytest.mark.rules(9)
def test_a_dead_letter_draws_nothing(impl: Implementation) -> None:
    """base 4, Random(1): a fails at 0 and waits randint(0, 4) = 1; at 10 its second and
    last attempt fails: dead, and no draw. b fails at 10 and waits the next draw,
    randint(0, 4) = 4: ready at 14. Had the dead letter drawn randint(0, 8), b would
    have drawn randint(0, 4) = 2, ready at 12."""
    steps = [submit("a", 0), submit("b", 0), claim("w", 0, limit=2), fail(1, "a", 0)]
    steps += [claim("w", 10), fail(2, "a", 10), fail(1, "b", 10), item("a")]
    steps += [claim("v", 12), claim("v", 13), claim("v", 14)]
    want = ["ok", "ok", leased(1, "a", "b"), "ok", leased(2, "a"), "ok", "ok"]
    want += [state("dead", 2, None, "oom"), None, None, leased(3, "b")]
    session = Session.of(steps, max_attempts=2, cap=10, lease_ticks=100)
    expect_session(impl, session, want, rule=RULE)


@pytest.mark.rules(9)
def test_expired_leases_draw_in_the_order_they_were_claimed(impl: Implementation) -> None:
    """Random(5) draws 4, 2, 2 from [0, 4]. Leases 1 (a, b) and 2 (c) expire together at
    11: a waits 4, b 2, c 2; at 13 b and c are ready, a at 15."""
    steps = [submit("a", 0), submit("b", 0), submit("c", 0), claim("w", 0, limit=2)]
    steps += [claim("v", 0), expire(11), claim("u", 13, limit=3), claim("u", 14), claim("u", 15)]
    want = ["ok", "ok", "ok", leased(1, "a", "b"), leased(2, "c"), expired("a", "b", "c")]
    want += [leased(3, "b", "c"), None, leased(4, "a")]
    expect_session(impl, Session.of(steps, seed=5), want, rule=RULE)


@pytest.mark.rules(9)
def test_the_wait_is_capped_at_any_attempt(impl: Implementation) -> None:
    """base 4, cap 4: every wait is randint(0, 4), at the thousandth attempt too."""
    steps = [submit("a", 0)]
    for attempt in range(1, 40):
        steps += [claim("w", 10 * attempt), fail(attempt, "a", 10 * attempt)]
    steps += [item("a")]
    want = ["ok"] + [leased(k, "a") if i == 0 else "ok" for k in range(1, 40) for i in (0, 1)]
    want += [state("waiting", 39, None, "oom")]
    expect_session(impl, Session.of(steps, max_attempts=1_000, cap=4), want, rule=RULE)


@pytest.mark.rules(10)
def test_a_release_gives_the_attempt_back(impl: Implementation) -> None:
    """A spot notice: w gives a and b back; they are ready at once, their attempt not
    counted, and w's lease is over."""
    steps = [submit("a", 0), submit("b", 0), claim("w", 0, limit=2), release(1, 3), item("a")]
    steps += [renew(1, 3), claim("v", 3, limit=2)]
    want = ["ok", "ok", leased(1, "a", "b"), "ok", state("ready", 0), "Fenced"]
    want += [leased(2, "a", "b")]
    expect_session(impl, Session.of(steps), want, rule=RULE)


@pytest.mark.rules(10, 11)
def test_a_release_gives_back_only_what_the_lease_still_held(impl: Implementation) -> None:
    """w completes a, then gives the lease back: b is ready again, a has ended and stays
    ended (an ended request never changes)."""
    steps = [submit("a", 0), submit("b", 0), claim("w", 0, limit=2), complete(1, "a", 2)]
    steps += [release(1, 3), item("a"), claim("v", 3, limit=2)]
    want = ["ok", "ok", leased(1, "a", "b"), "ok", "ok", state("succeeded", 1, "out:a")]
    want += [leased(2, "b")]
    expect_session(impl, Session.of(steps), want, rule=RULE)


@pytest.mark.rules(10)
def test_an_expired_lease_cannot_be_released(impl: Implementation) -> None:
    steps = [submit("a", 0), claim("w", 0), release(1, 11), item("a")]
    want = ["ok", leased(1, "a"), "Fenced", state("leased", 1)]
    expect_session(impl, Session.of(steps), want, rule=RULE)


@pytest.mark.rules(9)
def test_expired_leases_draw_in_claim_order_not_deadline_order(impl: Implementation) -> None:
    """Lease 1 (a) claimed at 0 and renewed at 5 is due after lease 2 (c), claimed at 2: both
    have expired at 16. Random(5) draws 4, then 2: a (lease 1, claimed first) is ready at
    20, c at 18."""
    steps = [submit("a", 0), submit("c", 0), claim("w", 0), claim("v", 2), renew(1, 5)]
    steps += [expire(16), claim("u", 18), claim("u", 20)]
    want = ["ok", "ok", leased(1, "a"), leased(2, "c"), "ok", expired("a", "c")]
    want += [leased(3, "c"), leased(4, "a")]
    expect_session(impl, Session.of(steps, seed=5), want, rule=RULE)


@pytest.mark.rules(1, 9)
def test_the_backoff_bound_is_exact_at_the_largest_bases(impl: Implementation) -> None:
    """base 2**60 + 1, every draw at its top (randint(0, b) is b): a fails at 0 and is ready
    at exactly 2**60 + 1, not at 2**60, where a float's power rounds the bound."""
    big = 2**60 + 1
    steps = [submit("a", 0), claim("w", 0), fail(1, "a", 0), claim("w", big - 1)]
    steps += [claim("w", big)]
    want = ["ok", leased(1, "a"), "ok", None, leased(2, "a")]
    session = Session.of(steps, base=big, cap=2**62, lease_ticks=2**62, seed=TOP)
    expect_session(impl, session, want, rule=RULE)
