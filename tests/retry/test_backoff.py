"""exponential_backoff: min(cap, base * 2**(retry - 1)), exactly, at any retry."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from kata.checks import expect, expect_each
from kata.impl import Implementation
from tests.support.retrying import backoff

pytestmark = [pytest.mark.retry_backoff, pytest.mark.rules(1)]

RULE = (
    "exponential_backoff(retry) is min(cap, base * 2**(retry - 1)) for retry >= 1 (the first "
    "retry waits base), an exact int at any retry: cap the exponent before forming the power, "
    "so no float overflows and no million-bit integer is built."
)


@pytest.mark.parametrize(
    ("retry", "want"), [(1, 10), (2, 20), (3, 40), (7, 640), (8, 1000), (9, 1000)]
)
def test_the_wait_doubles_from_base_until_the_cap(
    impl: Implementation, retry: int, want: int
) -> None:
    expect(impl, backoff("exponential_backoff", retry, base=10, cap=1000), want, rule=RULE)


def test_a_wait_exactly_at_the_cap_is_the_cap(impl: Implementation) -> None:
    """base 125, cap 1000: the fourth retry waits 125 * 8 = 1000 exactly."""
    expect(impl, backoff("exponential_backoff", 4, base=125, cap=1000), 1000, rule=RULE)


@pytest.mark.parametrize("retry", [1_024, 1_100, 10_000])
def test_retry_ten_thousand_is_the_cap_not_a_float_overflow(
    impl: Implementation, retry: int
) -> None:
    """2.0 ** 1024 overflows a float; the answer is still just the cap."""
    expect(impl, backoff("exponential_backoff", retry, base=3, cap=60_000), 60_000, rule=RULE)


def test_retry_ten_to_the_twelve_is_the_cap_at_once(impl: Implementation) -> None:
    """2**(10**12) has a trillion bits: never build it."""
    expect(impl, backoff("exponential_backoff", 10**12, base=1, cap=10**18), 10**18, rule=RULE)


def test_a_cap_beyond_any_float_is_exact(impl: Implementation) -> None:
    """base 3 at retry 200 is 3 * 2**199, under a cap of 10**80: exact, no float rounding."""
    expect(impl, backoff("exponential_backoff", 200, base=3, cap=10**80), 3 * 2**199, rule=RULE)


def test_a_base_past_a_floats_precision_is_exact(impl: Implementation) -> None:
    """base 2**60 + 1 at retry 2 is 2**61 + 2: a float power, even of a capped exponent,
    rounds it to 2**61."""
    big = 2**60 + 1
    expect(impl, backoff("exponential_backoff", 2, base=big, cap=2**80), 2 * big, rule=RULE)


def test_every_small_base_cap_and_retry_matches_the_formula(impl: Implementation) -> None:
    """Exhaustively, bases 1 to 4, caps up to 40, retries 1 to 9: a shortcut that returns
    the cap one retry early (base 1, cap 10: retry 4 is 8, not 10) shows here."""
    expect_each(
        impl,
        (
            (
                backoff("exponential_backoff", retry, base=base, cap=cap),
                min(cap, base << (retry - 1)),
            )
            for base in range(1, 5)
            for cap in range(base, 41)
            for retry in range(1, 10)
        ),
        rule=RULE,
    )


@given(st.integers(1, 200), st.integers(1, 10**6), st.integers(0, 10**9))
def test_matches_the_formula_at_any_retry(
    impl: Implementation, retry: int, base: int, extra: int
) -> None:
    cap = base + extra
    want = min(cap, base * 2 ** (retry - 1))
    expect(impl, backoff("exponential_backoff", retry, base=base, cap=cap), want, rule=RULE)
