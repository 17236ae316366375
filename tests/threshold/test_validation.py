"""misses_for_budget refuses the budgets no k can meet."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

from tests.support.impl import Implementation
from tests.support.raising import expect_value_error

pytestmark = pytest.mark.validation


@pytest.fixture(scope="session")
def misses_for_budget(impl: Implementation) -> Any:
    return impl.require("misses_for_budget")


@pytest.mark.parametrize(
    ("p", "n", "budget", "problem"),
    [
        (Fraction(1), 10, Fraction(1), "p = 1 (every heartbeat lost)"),
        (Fraction(3, 2), 10, Fraction(1), "p > 1"),
        (Fraction(-1, 10), 10, Fraction(1), "p < 0"),
        (Fraction(1, 10), -1, Fraction(1), "negative opportunities"),
        (Fraction(1, 10), 10, Fraction(0), "a budget of 0, which no k reaches"),
        (Fraction(1, 10), 10, Fraction(-1), "a negative budget"),
    ],
)
def test_impossible_budgets_raise_value_error(
    misses_for_budget: Any, p: Fraction, n: int, budget: Fraction, problem: str
) -> None:
    """Where no k exists, say so instead of looping forever or returning nonsense."""
    expect_value_error(
        lambda: misses_for_budget(miss_probability=p, opportunities=n, budget=budget),
        f"misses_for_budget(miss_probability={p!r}, opportunities={n}, budget={budget!r})",
        problem,
    )
