"""RetryBudget: gRPC's retry throttling, in exact arithmetic; and call_with_retries honouring it."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from kata.checks import expect, expect_that
from kata.impl import Implementation
from tests.support.retrying import OK, Script, budget, failure, retries

pytestmark = pytest.mark.retry_budget

RULE = (
    "tokens start at max_tokens; record(success=True) adds token_ratio, never above "
    "max_tokens; record(success=False) takes 1, never below 0; allows_retry() iff tokens > "
    "max_tokens / 2 (exactly half is not enough); exact Fractions."
)


@pytest.mark.rules(14, 15)
def test_failures_spend_tokens_until_retries_stop(impl: Implementation) -> None:
    """max 4: 4 -> 3 -> 2 (half: no more retries) -> 1 -> 0 -> 0 (never below)."""
    want = ((4, True), (3, True), (2, False), (1, False), (0, False), (0, False))
    want_exact = tuple((Fraction(t), a) for t, a in want)
    expect(impl, budget(4, Fraction(1, 10), "fffff"), want_exact, rule=RULE)


@pytest.mark.rules(14, 15)
def test_successes_earn_retries_back_exactly(impl: Implementation) -> None:
    """max 4 spent to 2; ten successes of 1/10 make exactly 3: retries again."""
    states = [(Fraction(4), True), (Fraction(3), True), (Fraction(2), False)]
    states += [(Fraction(2) + Fraction(i, 10), i > 0) for i in range(1, 11)]
    expect(impl, budget(4, Fraction(1, 10), "ff" + "s" * 10), tuple(states), rule=RULE)


@pytest.mark.rules(14)
def test_successes_never_raise_tokens_above_the_maximum(impl: Implementation) -> None:
    want = tuple((Fraction(t), True) for t in (3, 3, 3, 3))
    expect(impl, budget(3, Fraction(1, 2), "sss"), want, rule=RULE)


@pytest.mark.rules(14)
def test_a_float_ratio_is_taken_exactly(impl: Implementation) -> None:
    """0.25 is exact in binary: 4 successes after 1 failure refill exactly 1 token."""
    want = (
        (Fraction(10), True),
        (Fraction(9), True),
        (Fraction(37, 4), True),
        (Fraction(19, 2), True),
        (Fraction(39, 4), True),
        (Fraction(10), True),
    )
    expect(impl, budget(10, 0.25, "fssss"), want, rule=RULE)


@pytest.mark.rules(14)
def test_a_float_ratio_is_taken_at_its_binary_value(impl: Implementation) -> None:
    """0.1 is not a tenth in binary: one failure and one success leave 9 + Fraction(0.1)."""
    tenth = Fraction(0.1)  # 3602879701896397 / 36028797018963968
    want = ((Fraction(10), True), (Fraction(9), True), (9 + tenth, True))
    expect(impl, budget(10, 0.1, "fs"), want, rule=RULE)


@pytest.mark.rules(9, 15)
def test_a_spent_budget_stops_the_retries_of_a_call(impl: Implementation) -> None:
    """A budget of 10 with 5 failures recorded: the next failure is not retried."""
    expect_that(
        impl,
        [retries(Script((failure("status", 503), OK), budget=(10, Fraction(1, 10)), spent=5))],
        lambda seen: len(seen.calls) == 1 and seen.gave_up == "budget",
        claim="one call, then gave up as 'budget'",
        rule=RULE,
    )


@pytest.mark.rules(13)
def test_a_call_records_its_failures_and_its_success(impl: Implementation) -> None:
    """Two 503s then a success: 10 - 1 - 1 + 1/10 = 8.1 tokens."""
    expect_that(
        impl,
        [
            retries(
                Script(
                    (failure("status", 503, 1), failure("timeout", None, 1), OK),
                    budget=(10, Fraction(1, 10)),
                )
            )
        ],
        lambda seen: seen.ended == "returned" and seen.budget == (Fraction(81, 10),),
        claim="the budget holds 81/10 tokens after two failures and a success",
        rule=RULE,
    )


@pytest.mark.rules(13)
def test_a_failure_that_is_not_retryable_is_not_the_dependencys(impl: Implementation) -> None:
    """A 404 is the caller's mistake: it costs no token (gRPC counts retryable failures)."""
    expect_that(
        impl,
        [retries(Script((failure("status", 404),), budget=(10, Fraction(1, 10))))],
        lambda seen: seen.gave_up == "not retryable" and seen.budget == (Fraction(10),),
        claim="the budget still holds 10 tokens after a 404",
        rule=RULE,
    )


@pytest.mark.rules(13)
def test_the_failure_that_gives_up_is_recorded_too(impl: Implementation) -> None:
    """Three 503s with 3 attempts: three tokens spent, the last included."""
    expect_that(
        impl,
        [retries(Script((failure("status", 503, 1),), budget=(10, Fraction(1, 10))))],
        lambda seen: seen.gave_up == "attempts" and seen.budget == (Fraction(7),),
        claim="the budget holds 7 tokens after three failed attempts",
        rule=RULE,
    )


@pytest.mark.rules(14, 15)
@given(
    st.integers(1, 20),
    st.fractions(min_value=Fraction(1, 1000), max_value=1, max_denominator=1000),
    st.text("sf", max_size=40),
)
def test_any_sequence_matches_the_model(
    impl: Implementation, max_tokens: int, ratio: Fraction, steps: str
) -> None:
    """The model: the rule above, step by step."""
    tokens, states = Fraction(max_tokens), []
    states.append((tokens, tokens > Fraction(max_tokens, 2)))
    for step in steps:
        tokens = (
            min(Fraction(max_tokens), tokens + ratio)
            if step == "s"
            else max(Fraction(0), tokens - 1)
        )
        states.append((tokens, tokens > Fraction(max_tokens, 2)))
    expect(impl, budget(max_tokens, ratio, steps), tuple(states), rule=RULE)
