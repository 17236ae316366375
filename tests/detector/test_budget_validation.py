"""misses_for_budget refuses the budgets no k can meet, on every path."""

from __future__ import annotations

from fractions import Fraction

import pytest

from kata.checks import expect_value_error
from kata.impl import Implementation
from tests.support.detecting import Budget, budget_question

pytestmark = [pytest.mark.validation, pytest.mark.rules(10)]


@pytest.mark.parametrize(
    ("p", "n", "budget", "problem"),
    [
        (Fraction(1), 10, Fraction(1, 2), "p = 1 (every heartbeat lost)"),
        (Fraction(1), 10, Fraction(100), "p = 1, even where the budget covers every opportunity"),
        (Fraction(1), 0, Fraction(1), "p = 1, even with no opportunities"),
        (1.0, 10, 1.0, "p = 1.0 as a float"),
        (Fraction(3, 2), 10, Fraction(1), "p > 1"),
        (Fraction(3, 2), 0, Fraction(1), "p > 1, even with no opportunities"),
        (Fraction(-1, 10), 10, Fraction(1), "p < 0"),
        (Fraction(-1, 10), 0, Fraction(1), "p < 0, even with no opportunities"),
        (Fraction(1, 10), -1, Fraction(1), "negative opportunities"),
        (Fraction(1, 10), 10, Fraction(0), "a budget of 0, which no k reaches"),
        (Fraction(1, 10), 0, Fraction(0), "a budget of 0, even with no opportunities"),
        (Fraction(0), 10, Fraction(0), "a budget of 0, even where no heartbeat is lost"),
        (Fraction(1, 10), 10, 0.0, "a budget of 0.0 as a float"),
        (Fraction(1, 10), 10, Fraction(-1), "a negative budget"),
    ],
)
def test_impossible_budgets_raise_value_error(
    impl: Implementation, p: Fraction | float, n: int, budget: Fraction | float, problem: str
) -> None:
    """Where no k exists, say so instead of looping forever or returning nonsense."""
    expect_value_error(impl, budget_question(Budget(p, n, budget)), problem)
