"""A server's Retry-After is honoured, up to max_retry_after."""

from __future__ import annotations

import pytest

from kata.checks import expect_that
from kata.impl import Implementation
from tests.support.retrying import OK, Script, failure, retries

pytestmark = [pytest.mark.retry_pushback, pytest.mark.rules(10)]

RULE = (
    "a failure carrying retry_after is retried after exactly min(retry_after, "
    "max_retry_after) ticks, not after the jittered backoff: the server knows when it can "
    "take the call again; a Retry-After of an hour is not slept for an hour."
)


def test_a_retry_after_is_the_wait(impl: Implementation) -> None:
    expect_that(
        impl,
        [retries(Script((failure("status", 429, 120), OK), base=10, cap=20))],
        lambda seen: seen.sleeps == (120,) and seen.calls == (1_000, 1_120),
        claim="a 429 with Retry-After 120 was retried after sleeping exactly 120",
        rule=RULE,
    )


def test_a_retry_after_longer_than_the_cap_is_capped(impl: Implementation) -> None:
    expect_that(
        impl,
        [retries(Script((failure("status", 503, 3_600_000), OK), max_retry_after=500))],
        lambda seen: seen.sleeps == (500,),
        claim="a Retry-After of 3,600,000 was slept as max_retry_after = 500",
        rule=RULE,
    )


def test_a_retry_after_of_zero_retries_at_once(impl: Implementation) -> None:
    expect_that(
        impl,
        [retries(Script((failure("status", 503, 0), OK), base=1_000, cap=1_000))],
        lambda seen: seen.sleeps == (0,) and seen.ended == "returned",
        claim="Retry-After 0 was retried after sleeping 0",
        rule=RULE,
    )


def test_each_failure_uses_its_own_retry_after(impl: Implementation) -> None:
    outcomes = (failure("status", 503, 40), failure("status", 429, 70), failure("timeout"), OK)
    expect_that(
        impl,
        [retries(Script(outcomes, max_attempts=4, base=5, cap=5))],
        lambda seen: seen.sleeps[:2] == (40, 70) and 0 <= seen.sleeps[2] <= 5,
        claim="slept 40, then 70 (the servers' values), then a jittered wait within [0, 5]",
        rule=RULE,
    )


def test_a_retry_after_still_respects_the_attempts(impl: Implementation) -> None:
    expect_that(
        impl,
        [retries(Script((failure("status", 429, 10),), max_attempts=2))],
        lambda seen: len(seen.calls) == 2 and seen.gave_up == "attempts",
        claim="Retry-After does not add attempts: 2 calls, then 'attempts'",
        rule=RULE,
    )
