"""misses_for_budget: the smallest k >= 1 with opportunities * p**k <= budget, exactly."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tests.support.impl import Implementation

pytestmark = pytest.mark.threshold


def brute_force(p: Fraction, n: int, budget: Fraction) -> int:
    """The definition, one k at a time."""
    k = 1
    while n * p**k > budget:
        k += 1
    return k


def ask(misses_for_budget: Any, p: Fraction | float, n: int, budget: Fraction | float) -> int:
    """Call the candidate's function; fail with the definition's answer beside its own."""
    exact_p, exact_budget = Fraction(p), Fraction(budget)
    want = brute_force(exact_p, n, exact_budget)
    call = f"misses_for_budget(miss_probability={p!r}, opportunities={n}, budget={budget!r})"
    try:
        got = misses_for_budget(miss_probability=p, opportunities=n, budget=budget)
    except NotImplementedError:
        raise  # the starter, untouched: conftest reports it as not implemented yet
    except Exception as error:
        pytest.fail(
            f"{call}\n  raised {type(error).__name__}: {error}\n  expected {want}", pytrace=False
        )
    if got != want:
        pytest.fail(
            f"{call}\n  expected: {want}  (n * p**{want} = {n * exact_p**want})\n"
            f"       got: {got}\n"
            f"  Likely mistake: {diagnose(exact_p, n, exact_budget, want, got)}",
            pytrace=False,
        )
    return int(got)


def diagnose(p: Fraction, n: int, budget: Fraction, want: int, got: Any) -> str:
    if got == 0:
        return "k is at least 1: a rank must miss at least one heartbeat to be reported."
    if got == want + 1 and n * p**want == budget:
        return (
            f"at k={want}, n * p**k equals the budget exactly, which is within it (<=). Floats "
            "(ceil(log(budget / n) / log(p))) or a strict < overshoot here: use Fraction."
        )
    if got == want - 1:
        return (
            f"off by one: at k={got}, n * p**k = {n * p**got} still exceeds the budget "
            f"{budget}: return the first k within it."
        )
    if got == want + 1:
        return f"off by one: k={want} already meets the budget; return the smallest such k."
    return "k is the smallest k >= 1 with opportunities * p**k <= budget, in exact arithmetic."


@pytest.fixture(scope="session")
def misses_for_budget(impl: Implementation) -> Any:
    return impl.require("misses_for_budget")


def test_the_exact_boundary_one_eighth(misses_for_budget: Any) -> None:
    """8**7 * (1/8)**7 is exactly 1, within a budget of 1: k = 7, where floats say 8."""
    assert ask(misses_for_budget, Fraction(1, 8), 8**7, Fraction(1)) == 7


@pytest.mark.parametrize(
    ("p", "n", "budget"),
    [
        (Fraction(1, 2), 2**20, Fraction(1)),
        (Fraction(1, 10), 10**9, Fraction(1)),
        (Fraction(1, 3), 3**12, Fraction(1, 3)),
        (Fraction(1, 100), 604_800 * 1_024, Fraction(1)),
        (0.125, 8**7, 1.0),  # floats exactly representable are taken exactly
        (Fraction(1, 7), 7**20, Fraction(1)),
    ],
)
def test_exact_powers_land_on_the_boundary(
    misses_for_budget: Any, p: Fraction, n: int, budget: Fraction
) -> None:
    """Where n * p**k hits the budget exactly, that k is the answer, not k + 1."""
    ask(misses_for_budget, p, n, budget)


def test_at_least_one_miss_is_needed(misses_for_budget: Any) -> None:
    """No opportunities, or heartbeats that are never lost, still need k >= 1."""
    ask(misses_for_budget, Fraction(1, 2), 0, Fraction(1))
    ask(misses_for_budget, Fraction(0), 10**6, Fraction(1, 10**6))


probabilities = st.builds(
    lambda denominator, numerator: Fraction(numerator % denominator, denominator),
    st.integers(2, 60),
    st.integers(0, 10**6),
)
budgets = st.builds(Fraction, st.integers(1, 1000), st.integers(1, 1000))
opportunities = st.integers(0, 10**9)


@given(probabilities, opportunities, budgets)
def test_agrees_with_the_definition_computed_in_fractions(
    misses_for_budget: Any, p: Fraction, n: int, budget: Fraction
) -> None:
    """For any exact p, n and budget, the answer is the definition's."""
    ask(misses_for_budget, p, n, budget)


@given(probabilities, opportunities, budgets, budgets)
def test_a_larger_budget_never_needs_more_misses(
    misses_for_budget: Any, p: Fraction, n: int, budget: Fraction, extra: Fraction
) -> None:
    """Allowing more false alarms can only shorten the timeout."""
    assert ask(misses_for_budget, p, n, budget + extra) <= ask(misses_for_budget, p, n, budget)


@given(probabilities, opportunities, budgets, st.integers(0, 10**9))
def test_more_opportunities_never_need_fewer_misses(
    misses_for_budget: Any, p: Fraction, n: int, budget: Fraction, more: int
) -> None:
    """More ranks or a longer horizon can only lengthen the timeout."""
    assert ask(misses_for_budget, p, n + more, budget) >= ask(misses_for_budget, p, n, budget)
