"""misses_for_budget: the smallest k >= 1 with opportunities * p**k <= budget, exactly."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from kata.checks import expect, expect_that
from kata.impl import Implementation
from tests.support.detecting import Budget, budget_question, smallest_k

pytestmark = [pytest.mark.threshold, pytest.mark.rules(9)]

DEFINITION = (
    "k is the smallest integer k >= 1 with opportunities * p**k <= budget, computed exactly "
    "(Fraction, int): a float is taken at its exact binary value, and no size is too big."
)


def check(impl: Implementation, call: Budget) -> int:
    """Fail unless the answer is the definition's."""
    want = smallest_k(Fraction(call.miss_probability), call.opportunities, Fraction(call.budget))

    def symptom(want: int, got: int) -> str:
        p, n, b = Fraction(call.miss_probability), call.opportunities, Fraction(call.budget)
        over = "exceeds" if n * p**got > b else "is within"
        return f"at k={got}, n * p**k = {float(n * p**got):.6g} {over} the budget {float(b):.6g}."

    result: int = expect(impl, budget_question(call), want, rule=DEFINITION, symptom=symptom)
    return result


def test_the_exact_boundary_one_eighth(impl: Implementation) -> None:
    """8**7 * (1/8)**7 is exactly 1, within a budget of 1: k = 7, where floats say 8."""
    assert check(impl, Budget(Fraction(1, 8), 8**7, Fraction(1))) == 7


@pytest.mark.parametrize(
    ("p", "n", "budget"),
    [
        (Fraction(1, 2), 2**20, Fraction(1)),
        (Fraction(1, 10), 10**9, Fraction(1)),
        (Fraction(1, 3), 3**12, Fraction(1, 3)),
        (Fraction(1, 100), 604_800 * 1_024, Fraction(1)),
        (0.125, 8**7, 1.0),  # floats exactly representable are taken exactly
        (Fraction(1, 7), 7**20, Fraction(1)),
        (Fraction(1, 2), 3, Fraction(3, 2)),  # a tie at k = 1: 3 * 1/2 is the budget
    ],
)
def test_exact_powers_land_on_the_boundary(
    impl: Implementation, p: Fraction, n: int, budget: Fraction
) -> None:
    """Where n * p**k hits the budget exactly, that k is the answer, not k + 1."""
    check(impl, Budget(p, n, budget))


def test_at_least_one_miss_is_needed(impl: Implementation) -> None:
    """No opportunities, or heartbeats that are never lost, still need k >= 1."""
    check(impl, Budget(Fraction(1, 2), 0, Fraction(1)))
    check(impl, Budget(Fraction(0), 10**6, Fraction(1, 10**6)))
    check(impl, Budget(Fraction(1, 2), 5, Fraction(10)))


def test_one_miss_more_than_the_budget_allows(impl: Implementation) -> None:
    """Just over the budget at k means k + 1: the answer is the first k within it."""
    check(impl, Budget(Fraction(1, 2), 2**10 + 1, Fraction(1)))


def test_the_answer_is_an_int(impl: Implementation) -> None:
    """k counts misses: an int, not 7.0 or Fraction(7)."""
    check(impl, Budget(Fraction(1, 2), 2**6, Fraction(1)))


def test_a_float_probability_is_taken_at_its_exact_binary_value(impl: Implementation) -> None:
    """0.1 as a float is 0.1000000000000000055...: 10**6 * that**6 is just over 1, so k = 7."""
    check(impl, Budget(0.1, 10**6, Fraction(1)))


def test_a_float_budget_is_taken_at_its_exact_binary_value(impl: Implementation) -> None:
    """0.7 as a float is 0.6999999999999999555...: 7000 * (1/10)**4 = 7/10 exceeds it, k = 5."""
    check(impl, Budget(Fraction(1, 10), 7_000, 0.7))


def test_opportunities_beyond_a_floats_precision(impl: Implementation) -> None:
    """2**67 + 1 (about 1.5e20) is not a float: (2**67 + 1) / 2**67 is just over 1, so k = 68."""
    check(impl, Budget(Fraction(1, 2), 2**67 + 1, Fraction(1), "2**67 + 1"))


def test_k_in_the_thousands_at_an_exact_boundary(impl: Implementation) -> None:
    """2**3000 opportunities at p = 1/2: k = 3000 exactly; (1/2)**3000 underflows a float to 0."""
    check(impl, Budget(Fraction(1, 2), 2**3000, Fraction(1), "2**3000"))


def test_k_in_the_thousands_from_a_high_miss_probability(impl: Implementation) -> None:
    """A 99% miss probability over 10**20 opportunities needs k = 4,583."""
    check(impl, Budget(Fraction(99, 100), 10**20, Fraction(1), "10**20"))


probabilities = st.builds(
    lambda denominator, numerator: Fraction(numerator % denominator, denominator),
    st.integers(2, 60),
    st.integers(0, 10**6),
)
budgets = st.builds(Fraction, st.integers(1, 1000), st.integers(1, 1000))
opportunities = st.integers(0, 10**9)


@given(probabilities, opportunities, budgets)
def test_agrees_with_the_definition_computed_in_fractions(
    impl: Implementation, p: Fraction, n: int, budget: Fraction
) -> None:
    """For any exact p, n and budget, the answer is the definition's."""
    check(impl, Budget(p, n, budget))


@given(probabilities, opportunities, budgets, budgets)
def test_a_larger_budget_never_needs_more_misses(
    impl: Implementation, p: Fraction, n: int, budget: Fraction, extra: Fraction
) -> None:
    """Allowing more false alarms can only shorten the timeout."""
    expect_that(
        impl,
        [budget_question(Budget(p, n, budget + extra)), budget_question(Budget(p, n, budget))],
        lambda larger, smaller: larger <= smaller,
        claim="a larger budget needed more misses",
        rule=DEFINITION,
    )


@given(probabilities, opportunities, budgets, st.integers(0, 10**9))
def test_more_opportunities_never_need_fewer_misses(
    impl: Implementation, p: Fraction, n: int, budget: Fraction, more: int
) -> None:
    """More ranks or a longer horizon can only lengthen the timeout."""
    expect_that(
        impl,
        [budget_question(Budget(p, n + more, budget)), budget_question(Budget(p, n, budget))],
        lambda more_k, fewer_k: more_k >= fewer_k,
        claim="more opportunities needed fewer misses",
        rule=DEFINITION,
    )
