"""Parameters no policy, schedule, budget or store can honour raise ValueError."""

from __future__ import annotations

from fractions import Fraction

import pytest

from kata.checks import expect_value_error
from kata.impl import Implementation
from tests.support.retrying import backoff, construct

pytestmark = pytest.mark.retry_validation


@pytest.mark.rules(5)
@pytest.mark.parametrize("name", ["exponential_backoff", "full_jitter", "equal_jitter"])
@pytest.mark.parametrize(
    ("retry", "base", "cap", "problem"),
    [
        (0, 10, 100, "retry 0 (the first retry is 1)"),
        (-3, 10, 100, "a negative retry"),
        (1, 0, 100, "a base of 0"),
        (2, 10, 5, "a cap below base"),
    ],
)
def test_impossible_backoffs_raise_value_error(
    impl: Implementation, name: str, retry: int, base: int, cap: int, problem: str
) -> None:
    seed = None if name == "exponential_backoff" else 1
    expect_value_error(impl, backoff(name, retry, base=base, cap=cap, seed=seed), problem)


@pytest.mark.rules(5)
@pytest.mark.parametrize("name", ["exponential_backoff", "full_jitter", "equal_jitter"])
@pytest.mark.parametrize(
    ("base", "cap", "problem"), [(0, 10, "a base of 0"), (10, 5, "a cap below base")]
)
def test_a_huge_retry_is_refused_for_a_bad_base_or_cap(
    impl: Implementation, name: str, base: int, cap: int, problem: str
) -> None:
    """Retry 10**12 would be the cap at once; the arguments are checked before that shortcut."""
    seed = None if name == "exponential_backoff" else 1
    expect_value_error(impl, backoff(name, 10**12, base=base, cap=cap, seed=seed), problem)


@pytest.mark.rules(5)
@pytest.mark.parametrize(
    ("previous", "base", "cap", "problem"),
    [
        (5, 10, 100, "a previous wait below base"),
        (10, 0, 100, "a base of 0"),
        (10, 10, 5, "a cap below base"),
    ],
)
def test_impossible_decorrelated_jitter_raises_value_error(
    impl: Implementation, previous: int, base: int, cap: int, problem: str
) -> None:
    expect_value_error(
        impl, backoff("decorrelated_jitter", previous, base=base, cap=cap, seed=1), problem
    )


@pytest.mark.rules(16)
@pytest.mark.parametrize(
    ("arguments", "problem"),
    [
        ((0, Fraction(1, 10)), "max_tokens 0"),
        ((-5, Fraction(1, 10)), "negative max_tokens"),
        ((10, 0), "a token_ratio of 0"),
        ((10, Fraction(3, 2)), "a token_ratio above 1"),
        ((10, -0.5), "a negative token_ratio"),
    ],
)
def test_impossible_budgets_raise_value_error(
    impl: Implementation, arguments: tuple[object, ...], problem: str
) -> None:
    expect_value_error(impl, construct("RetryBudget", *arguments), problem)


@pytest.mark.rules(23)
@pytest.mark.parametrize(("ttl", "problem"), [(0, "a ttl of 0"), (-1, "a negative ttl")])
def test_impossible_stores_raise_value_error(impl: Implementation, ttl: int, problem: str) -> None:
    expect_value_error(impl, construct("IdempotencyStore", ttl), problem)
