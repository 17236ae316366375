"""misses_for_budget stays exact where exact powers are out of reach: p close to 1, n huge.

The kata's tests compare it with the definition computed in Fractions
wherever that is feasible (k in the thousands, 8**7, 2**3000).  Beyond, the
answer is checked here by logarithms to 300 digits, a method independent of
the reference's (which uses as few digits as decide): k is within the
budget and k - 1 is not.
"""

from __future__ import annotations

from decimal import Decimal, localcontext
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from solution.threshold import misses_for_budget

pytestmark = pytest.mark.reference


def ln(x: int) -> Decimal:
    return Decimal(x).ln()


def excess(p: Fraction, n: int, budget: Fraction, k: int) -> Decimal:
    """ln(n * p**k / budget), to 300 digits: <= 0 within the budget."""
    with localcontext() as context:
        context.prec = 300
        power = k * (ln(p.numerator) - ln(p.denominator))
        return ln(n) + power - ln(budget.numerator) + ln(budget.denominator)


def is_the_answer(p: Fraction, n: int, budget: Fraction, k: int) -> bool:
    return excess(p, n, budget, k) <= 0 and (k == 1 or excess(p, n, budget, k - 1) > 0)


@pytest.mark.parametrize(
    "p",
    [
        Fraction(99999, 100000),
        Fraction(0.99999),
        1 - Fraction(1, 10**9),
        1 - Fraction(1, 10**30),
        1 - Fraction(1, 10**100),
        Fraction(10**50 - 7, 10**50),
    ],
    ids=str,
)
@pytest.mark.parametrize("n", [619_315_200, 10**20, 10**30])
def test_k_in_the_millions_and_beyond_is_the_definitions(p: Fraction, n: int) -> None:
    k = misses_for_budget(miss_probability=p, opportunities=n, budget=1)
    assert is_the_answer(p, n, Fraction(1), k), k


@given(
    st.integers(1, 10**12).map(lambda gap: 1 - Fraction(1, gap + 1)),
    st.integers(1, 10**30),
    st.fractions(min_value=Fraction(1, 10**6), max_value=Fraction(10**6), max_denominator=10**6),
)
def test_near_one_any_size_agrees_with_logarithms_to_300_digits(
    p: Fraction, n: int, budget: Fraction
) -> None:
    k = misses_for_budget(miss_probability=p, opportunities=n, budget=budget)
    assert is_the_answer(p, n, budget, k), k
