"""At most max_attempts calls, the first included; no attempt at or after the deadline."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from kata.checks import expect_that
from kata.impl import Implementation
from tests.support.retrying import OK, Script, failure, retries, waits_and_jitter

pytestmark = pytest.mark.retry_limits

RULE = (
    "max_attempts counts every call, the first included; after attempt n fails, a retry is "
    "made only if clock() + wait < start + deadline, and a wait that would reach the "
    "deadline is not slept: give up at once, with gave_up 'attempts' or 'deadline'."
)
DOWN = (failure("status", 503),)


@pytest.mark.rules(9)
@pytest.mark.parametrize("attempts", [1, 2, 3, 5])
def test_max_attempts_counts_the_first_attempt(impl: Implementation, attempts: int) -> None:
    expect_that(
        impl,
        [retries(Script(DOWN, max_attempts=attempts))],
        lambda seen: len(seen.calls) == attempts and seen.gave_up == "attempts",
        claim=f"max_attempts={attempts} made {attempts} calls, then gave up as 'attempts'",
        rule=RULE,
    )


@pytest.mark.rules(8, 9)
def test_the_last_attempt_may_succeed(impl: Implementation) -> None:
    expect_that(
        impl,
        [retries(Script((*DOWN, *DOWN, OK), max_attempts=3))],
        lambda seen: seen.ended == "returned" and seen.value == "done" and len(seen.calls) == 3,
        claim="failing twice then succeeding on the third of 3 attempts returned 'done'",
        rule=RULE,
    )


@pytest.mark.rules(10)
def test_each_wait_is_full_jitter_of_its_retry(impl: Implementation) -> None:
    """base 100, cap 250: waits within [0, 100], [0, 200], [0, 250], [0, 250]."""
    expect_that(
        impl,
        [retries(Script(DOWN, max_attempts=5, base=100, cap=250))],
        lambda seen: (
            len(seen.sleeps) == 4
            and all(0 <= w <= h for w, h in zip(seen.sleeps, (100, 200, 250, 250), strict=True))
        ),
        claim="4 waits, each within [0, min(250, 100 * 2**(n - 1))]",
        rule=RULE,
    )


@pytest.mark.rules(10)
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_wait_after_attempt_n_is_full_jitter_of_retry_n(
    impl: Implementation, seed: int
) -> None:
    """Five attempts down, no Retry-After: the four waits are full_jitter(1), ..., full_jitter(4),
    each drawn once, in order, from the call's rng: nothing else is drawn from it."""
    expect_that(
        impl,
        [waits_and_jitter(Script(DOWN, max_attempts=5, base=100, cap=10**6, seed=seed))],
        lambda answer: len(answer[0]) == 4 and answer[0] == answer[1],
        claim="the call slept exactly what full_jitter drew for retries 1 to 4",
        rule=RULE,
    )


@pytest.mark.rules(9)
def test_the_attempts_run_out_before_the_budget_is_asked(impl: Implementation) -> None:
    """max_attempts=1 and a spent budget: attempts is checked first, so gave_up is 'attempts'."""
    script = Script(DOWN, max_attempts=1, budget=(10, Fraction(1)), spent=5)
    expect_that(
        impl,
        [retries(script)],
        lambda seen: len(seen.calls) == 1 and seen.gave_up == "attempts",
        claim="one call, given up as 'attempts' (checked before the budget)",
        rule=RULE,
    )


@pytest.mark.rules(9, 10)
def test_a_retry_that_would_start_at_the_deadline_is_not_made(impl: Implementation) -> None:
    """Retry-After 300 from tick 1,000 with the deadline at 1,300: give up, sleep nothing."""
    expect_that(
        impl,
        [retries(Script((failure("status", 503, 300),), deadline=300))],
        lambda seen: len(seen.calls) == 1 and seen.sleeps == () and seen.gave_up == "deadline",
        claim="one call, no sleep, gave up as 'deadline'",
        rule=RULE,
    )


@pytest.mark.rules(9, 10)
def test_a_retry_one_tick_before_the_deadline_is_made(impl: Implementation) -> None:
    expect_that(
        impl,
        [retries(Script((failure("status", 503, 299), OK), deadline=300))],
        lambda seen: seen.ended == "returned" and seen.sleeps == (299,),
        claim="the retry after a 299-tick wait, one tick before the deadline, was made",
        rule=RULE,
    )


@pytest.mark.rules(9, 10)
def test_the_deadline_counts_from_the_first_attempt_across_attempts(impl: Implementation) -> None:
    """Attempts of 100 ticks and waits of 150 from tick 1,000, deadline 600: calls at 1,000,
    1,250, 1,500; the next would start at 1,750, past 1,600."""
    expect_that(
        impl,
        [
            retries(
                Script((failure("status", 503, 150),), deadline=600, duration=100, max_attempts=10)
            )
        ],
        lambda seen: seen.calls == (1_000, 1_250, 1_500) and seen.gave_up == "deadline",
        claim="calls at 1000, 1250, 1500, then gave up as 'deadline' without sleeping",
        rule=RULE,
    )


@pytest.mark.rules(10)
def test_a_wait_past_the_deadline_is_never_slept(impl: Implementation) -> None:
    """The clock never passes the deadline while sleeping: the last sleep ends before it."""
    expect_that(
        impl,
        [retries(Script(DOWN, deadline=2_000, base=400, cap=400, max_attempts=100, duration=50))],
        lambda seen: (
            seen.gave_up == "deadline"
            and seen.calls[-1] < 3_000
            and len(seen.sleeps) == len(seen.calls) - 1
        ),
        claim="every attempt started before the deadline (tick 3,000), no sleep after the last "
        "attempt; gave up as 'deadline'",
        rule=RULE,
    )


@pytest.mark.rules(9, 10)
@given(
    st.integers(1, 6),
    st.integers(0, 5_000),
    st.integers(0, 60),
    st.integers(1, 300),
    st.integers(0, 3),
    st.integers(0, 1000),
)
def test_no_attempt_beyond_the_limits(
    impl: Implementation,
    attempts: int,
    deadline: int,
    duration: int,
    base: int,
    extra: int,
    seed: int,
) -> None:
    """Any policy, a dependency that is down: the attempts and the deadline hold."""
    script = Script(
        DOWN,
        max_attempts=attempts,
        deadline=deadline,
        duration=duration,
        base=base,
        cap=base * (1 + extra),
        seed=seed,
    )
    expect_that(
        impl,
        [retries(script)],
        lambda seen: (
            1 <= len(seen.calls) <= attempts
            and all(t < 1_000 + deadline for t in seen.calls[1:])
            and len(seen.sleeps) == len(seen.calls) - 1
            and seen.gave_up in ("attempts", "deadline")
        ),
        claim="at most max_attempts calls, every retry started before the deadline, and no "
        "sleep after the last attempt",
        rule=RULE,
    )
