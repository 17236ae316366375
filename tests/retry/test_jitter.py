"""Full, equal and decorrelated jitter: within their exact bounds, uniform, and seeded."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from kata.checks import expect_that
from kata.impl import Implementation
from tests.support.retrying import chain, draws

pytestmark = pytest.mark.retry_jitter

RULE = (
    "with e = min(cap, base * 2**(retry - 1)): full jitter is a uniform integer in [0, e], "
    "equal jitter e // 2 plus a uniform integer in [0, e - e // 2], decorrelated jitter "
    "min(cap, a uniform integer in [base, 3 * previous]); both ends included; drawn from the "
    "rng given, so one seed gives one sequence; jitter never takes a wait past the cap."
)


def full_bounds(e: int) -> tuple[int, int]:
    return 0, e


def equal_bounds(e: int) -> tuple[int, int]:
    return e // 2, e


BOUNDS = {"full_jitter": full_bounds, "equal_jitter": equal_bounds}  # (lowest, highest) for e


def e_of(retry: int, base: int, cap: int) -> int:
    return min(cap, base << (retry - 1))


@pytest.mark.rules(2)
@pytest.mark.parametrize("name", BOUNDS)
@pytest.mark.parametrize(
    ("retry", "base", "cap"), [(1, 10, 1000), (4, 10, 1000), (9, 10, 1000), (10_000, 7, 5_000)]
)
def test_every_wait_is_within_its_bounds(
    impl: Implementation, name: str, retry: int, base: int, cap: int
) -> None:
    e = e_of(retry, base, cap) if retry < 100 else cap
    low, high = BOUNDS[name](e)
    expect_that(
        impl,
        [draws(name, retry, base=base, cap=cap, seed=7, count=400)],
        lambda waits: all(low <= w <= high for w in waits),
        claim=f"every wait within [{low}, {high}]",
        rule=RULE,
    )


@pytest.mark.rules(2)
@pytest.mark.parametrize(
    ("name", "mean"), [("full_jitter", Fraction(500)), ("equal_jitter", Fraction(750))]
)
def test_the_mean_wait_is_the_formulas(impl: Implementation, name: str, mean: Fraction) -> None:
    """e = 1000: full jitter averages 500, equal jitter 750 (20,000 draws, within 3%).

    Without jitter every client waits e, and they retry in step: the mean gives it away.
    """
    expect_that(
        impl,
        [draws(name, 8, base=10, cap=1000, seed=11, count=20_000)],
        lambda waits: abs(Fraction(sum(waits), len(waits)) - mean) <= mean * Fraction(3, 100),
        claim=f"the mean of 20,000 waits within 3% of {mean}",
        rule=RULE,
    )


@pytest.mark.rules(2)
@pytest.mark.parametrize("name", BOUNDS)
def test_both_ends_of_the_range_are_drawn(impl: Implementation, name: str) -> None:
    """e = 1: full jitter draws 0 and 1, equal jitter 0 and 1 too (0 + [0, 1])."""
    expect_that(
        impl,
        [draws(name, 1, base=1, cap=1, seed=3, count=200)],
        lambda waits: set(waits) == {0, 1},
        claim="over 200 draws with e = 1, both 0 and 1 appear, and nothing else",
        rule=RULE,
    )


@pytest.mark.rules(2)
@pytest.mark.parametrize(
    ("name", "base", "values"), [("full_jitter", 2, (0, 1, 2)), ("equal_jitter", 4, (2, 3, 4))]
)
def test_every_integer_of_a_small_range_is_equally_likely(
    impl: Implementation, name: str, base: int, values: tuple[int, ...]
) -> None:
    """Three values, 3,000 draws: each about 1,000 times (within 15%, over five deviations).

    A rounded float (``round(rng.random() * e)``) stays in range but draws each end
    half as often as the middle: 750, 1,500, 750.
    """
    expect_that(
        impl,
        [draws(name, 1, base=base, cap=base, seed=5, count=3_000)],
        lambda waits: (
            all(850 <= waits.count(v) <= 1_150 for v in values) and set(waits) <= set(values)
        ),
        claim=f"each of {list(values)} drawn between 850 and 1,150 times in 3,000",
        rule=RULE,
    )


@pytest.mark.rules(4)
@pytest.mark.parametrize("name", BOUNDS)
def test_waits_vary_from_client_to_client(impl: Implementation, name: str) -> None:
    """Ten clients at their third retry, each with its own generator: not one shared wait."""
    expect_that(
        impl,
        [draws(name, 3, base=100, cap=10_000, seed=seed, count=1) for seed in range(10)],
        lambda *waits: len(set(waits)) > 1,
        claim="ten generators seeded differently drew the same wait: that is no jitter",
        rule=RULE,
    )


@pytest.mark.rules(4)
@pytest.mark.parametrize("name", [*BOUNDS, "decorrelated_jitter"])
@pytest.mark.alone(
    "only a generator other than the rng given fails it, and its draws differ from run to run,"
    " so no known mistake can give the same answers"
)
def test_the_same_seed_gives_the_same_waits(impl: Implementation, name: str) -> None:
    step = 100 if name == "decorrelated_jitter" else 5
    questions = [draws(name, step, base=100, cap=100_000, seed=42, count=50) for _ in range(2)]
    expect_that(
        impl, questions, lambda a, b: a == b, claim="two runs from Random(42) differ", rule=RULE
    )


@pytest.mark.rules(3)
def test_decorrelated_jitter_stays_within_base_and_cap(impl: Implementation) -> None:
    """Fed back as a client feeds it, for 500 retries: never below base, never above cap."""
    expect_that(
        impl,
        [chain(base=50, cap=2_000, seed=5, count=500)],
        lambda waits: all(50 <= w <= 2_000 for w in waits) and 2_000 in waits,
        claim="every wait in [50, 2000], the cap reached",
        rule=RULE,
    )


@pytest.mark.rules(3)
def test_decorrelated_jitter_draws_from_base_to_three_times_the_previous(
    impl: Implementation,
) -> None:
    """previous = 100, base 10: uniform in [10, 300], both ends drawn, mean 155 (within 3%)."""
    expect_that(
        impl,
        [draws("decorrelated_jitter", 100, base=10, cap=100_000, seed=9, count=20_000)],
        lambda waits: (
            min(waits) == 10 and max(waits) == 300 and abs(sum(waits) / len(waits) - 155) < 4.7
        ),
        claim="20,000 waits from 10 to 300 inclusive, mean 155 +- 3%",
        rule=RULE,
    )


@pytest.mark.rules(3)
def test_decorrelated_jitter_is_capped(impl: Implementation) -> None:
    expect_that(
        impl,
        [draws("decorrelated_jitter", 10_000, base=10, cap=500, seed=2, count=200)],
        lambda waits: all(w <= 500 for w in waits) and waits.count(500) > 100,
        claim="with 3 * previous far above the cap, the wait is the cap (most draws)",
        rule=RULE,
    )


@pytest.mark.rules(2, 3)
@given(
    st.sampled_from(list(BOUNDS)),
    st.integers(1, 60),
    st.integers(1, 1000),
    st.integers(0, 10**6),
    st.integers(0, 10**6),
)
def test_any_wait_is_within_its_bounds(
    impl: Implementation, name: str, retry: int, base: int, extra: int, seed: int
) -> None:
    cap = base + extra
    e = e_of(retry, base, cap)
    low, high = BOUNDS[name](e)
    expect_that(
        impl,
        [draws(name, retry, base=base, cap=cap, seed=seed, count=5)],
        lambda waits: all(low <= w <= high for w in waits),
        claim=f"every wait within [{low}, {high}]",
        rule=RULE,
    )
