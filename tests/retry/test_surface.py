"""Giving up raises the last failure itself, with the history of every attempt and why."""

from __future__ import annotations

from fractions import Fraction

import pytest

from kata.checks import expect_that
from kata.impl import Implementation
from tests.support.retrying import OK, Script, failure, retries

pytestmark = pytest.mark.retry_surface

RULE = (
    "on giving up, raise the last Failure itself (never None, never another exception), with "
    "failure.attempts = every attempt in order (number from 1, started_at, its failure, the "
    "wait after it, 0 for the last) and failure.gave_up = why; a success returns the call's "
    "value; an exception that is not a Failure is a bug and passes through, unretried."
)


@pytest.mark.rules(11)
def test_the_last_failure_is_raised_with_its_history(impl: Implementation) -> None:
    """Three attempts, Retry-After 30 each, 10 ticks each: the whole story on the exception."""
    script = Script((failure("status", 503, 30),), duration=10, max_attempts=3)
    expect_that(
        impl,
        [retries(script)],
        lambda seen: (
            seen.ended == "raised the last failure"
            and seen.gave_up == "attempts"
            and seen.attempts == ((1, 1_000, 1, 30), (2, 1_040, 2, 30), (3, 1_080, 3, 0))
        ),
        claim="raised the third Failure itself, attempts ((1, 1000, #1, 30), (2, 1040, #2, 30), "
        "(3, 1080, #3, 0)), gave_up 'attempts'",
        rule=RULE,
    )


@pytest.mark.rules(11)
def test_a_final_failure_on_the_first_attempt_has_a_history_of_one(impl: Implementation) -> None:
    expect_that(
        impl,
        [retries(Script((failure("status", 404),)))],
        lambda seen: (
            seen.ended == "raised the last failure"
            and seen.attempts == ((1, 1_000, 1, 0),)
            and seen.gave_up == "not retryable"
        ),
        claim="the 404 itself raised, with one attempt in its history",
        rule=RULE,
    )


@pytest.mark.rules(11)
def test_the_last_attempt_waited_nothing_when_the_deadline_ends_the_call(
    impl: Implementation,
) -> None:
    """Retry-After 200 against a deadline 150 away: the call gives up without sleeping, and its
    one attempt's `waited` is 0, not the 200 it chose not to sleep."""
    expect_that(
        impl,
        [retries(Script((failure("status", 503, 200),), deadline=150))],
        lambda seen: seen.gave_up == "deadline" and seen.attempts == ((1, 1_000, 1, 0),),
        claim="gave up as 'deadline', attempts ((1, 1000, #1, 0),)",
        rule=RULE,
    )


@pytest.mark.rules(8)
def test_a_success_returns_the_calls_value(impl: Implementation) -> None:
    expect_that(
        impl,
        [retries(Script((("ok", {"id": 7}),)))],
        lambda seen: seen.ended == "returned" and seen.value == {"id": 7} and len(seen.calls) == 1,
        claim="returned the call's value, {'id': 7}, after one call",
        rule=RULE,
    )


@pytest.mark.rules(12)
def test_a_bug_in_the_call_passes_through_unretried(impl: Implementation) -> None:
    expect_that(
        impl,
        [retries(Script((("bug",), OK)))],
        lambda seen: seen.ended == "passed the bug through" and len(seen.calls) == 1,
        claim="a RuntimeError (not a Failure) passed through after one call",
        rule=RULE,
    )


@pytest.mark.rules(9, 11)
@pytest.mark.parametrize(
    ("script", "reason"),
    [
        (Script((failure("status", 400),)), "not retryable"),
        (Script((failure("timeout"),), method="POST"), "not safe to repeat"),
        (Script((failure("timeout"),), max_attempts=2), "attempts"),
        (Script((failure("timeout"),), budget=(10, Fraction(1)), spent=5), "budget"),
        (Script((failure("status", 503, 200),), deadline=150), "deadline"),
    ],
    ids=["not retryable", "not safe to repeat", "attempts", "budget", "deadline"],
)
def test_why_it_gave_up_is_said(impl: Implementation, script: Script, reason: str) -> None:
    expect_that(
        impl,
        [retries(script)],
        lambda seen: seen.ended == "raised the last failure" and seen.gave_up == reason,
        claim=f"gave_up == {reason!r}",
        rule=RULE,
    )
