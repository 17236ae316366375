"""Fair share: with Config(fair=True) accounts share the slots by weight; none starves."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from kata.checks import expect_that
from kata.impl import Implementation
from tests.support.crediting import (
    Session,
    deposit,
    expect_session,
    finish,
    open_account,
    schedule,
    session,
    started,
    submit,
)

pytestmark = pytest.mark.credits_fairness

RULE = (
    "with fair=True the next account is the one with the least virtual time (ties by the "
    "order accounts were opened), counted from the larger of its own and the scheduler's; "
    "starting a job sets the scheduler's virtual time to that, and the account's to it plus "
    "cost / weight; within an account, its own order."
)


def _backlog(*accounts: tuple[str, int], jobs: int = 8, cost: int = 1) -> list[tuple[object, ...]]:
    steps: list[tuple[object, ...]] = []
    for name, weight in accounts:
        steps += [open_account(name, weight), deposit(name, 10_000)]
    for name, _ in accounts:
        steps += [
            submit(f"{name}{i}", name, cost, priority=9 if name == "a" else 0) for i in range(jobs)
        ]
    return steps


@pytest.mark.rules(11, 12)
def test_a_stream_of_high_priorities_cannot_starve_another_account(impl: Implementation) -> None:
    """a's jobs all have priority 9, b's 0: by priority b would wait for all of a's; fair,
    they alternate."""
    steps = [*_backlog(("a", 1), ("b", 1), jobs=3), schedule(0)]
    want = ["ok"] * 10 + [started("a0", "b0", "a1", "b1", "a2", "b2")]
    expect_session(impl, Session.of(steps, slots=6, fair=True), want, rule=RULE)


@pytest.mark.rules(10)
def test_without_fairness_priority_decides(impl: Implementation) -> None:
    steps = [*_backlog(("a", 1), ("b", 1), jobs=3), schedule(0)]
    want = ["ok"] * 10 + [started("a0", "a1", "a2", "b0", "b1", "b2")]
    expect_session(impl, Session.of(steps, slots=6), want, rule=RULE)


@pytest.mark.rules(11, 12)
def test_weights_share_the_slots(impl: Implementation) -> None:
    """Weights 1 and 3, equal costs: b starts three jobs for each of a's."""
    steps = [*_backlog(("a", 1), ("b", 3)), schedule(0)]
    want = ["ok"] * 20 + [started("a0", "b0", "b1", "b2", "a1", "b3", "b4", "b5")]
    expect_session(impl, Session.of(steps, slots=8, fair=True), want, rule=RULE)


@pytest.mark.rules(11, 12)
def test_a_costly_job_counts_for_more(impl: Implementation) -> None:
    """a's jobs cost 3, b's 1, equal weights: b starts three for each of a's."""
    steps = [open_account("a"), deposit("a", 100), open_account("b"), deposit("b", 100)]
    steps += [submit(f"a{i}", "a", 3) for i in range(2)] + [
        submit(f"b{i}", "b", 1) for i in range(6)
    ]
    steps += [schedule(0)]
    want = ["ok"] * 12 + [started("a0", "b0", "b1", "b2", "a1", "b3", "b4", "b5")]
    expect_session(impl, Session.of(steps, slots=8, fair=True), want, rule=RULE)


@pytest.mark.rules(11, 12)
def test_an_account_that_was_idle_gets_no_credit_for_it(impl: Implementation) -> None:
    """a runs alone for six jobs; when b arrives it takes its turn, not the next six."""
    steps = [open_account("a"), deposit("a", 100), open_account("b"), deposit("b", 100)]
    steps += [submit(f"a{i}", "a", 1) for i in range(10)] + [schedule(0)]
    steps += [finish(f"a{i}", 1) for i in range(6)]
    steps += [submit(f"b{i}", "b", 1) for i in range(4)] + [schedule(1)]
    want = ["ok"] * 14 + [started(*(f"a{i}" for i in range(6)))] + ["ok"] * 10
    want += [started("b0", "a6", "b1", "a7", "b2", "a8")]
    expect_session(impl, Session.of(steps, slots=6, fair=True), want, rule=RULE)


@pytest.mark.rules(11)
def test_ties_go_by_the_order_accounts_were_opened_not_by_name(impl: Implementation) -> None:
    """'b' opened before 'a', equal weights and costs: b's jobs take the ties."""
    steps = [open_account("b"), deposit("b", 10), open_account("a"), deposit("a", 10)]
    steps += [submit(f"a{i}", "a", 1) for i in range(2)] + [
        submit(f"b{i}", "b", 1) for i in range(2)
    ]
    steps += [schedule(0)]
    want = ["ok"] * 8 + [started("b0", "a0", "b1", "a1")]
    expect_session(impl, Session.of(steps, slots=4, fair=True), want, rule=RULE)


@pytest.mark.rules(11)
def test_accounts_behind_the_scheduler_tie_at_its_virtual_time(impl: Implementation) -> None:
    """A ran one job of 5 (its own time 5), C three of 10 alone (the scheduler's time is now
    20). A, B and C each submit one job: A and B are both behind 20, so both stand at 20 and
    tie, A opened first goes; by their own times B (0) would go before A (5)."""
    steps = [open_account(n) for n in "ABC"] + [deposit(n, 1_000) for n in "ABC"]
    steps += [submit("a0", "A", 5), schedule(0), finish("a0", 5)]
    for i in range(3):
        steps += [submit(f"c{i}", "C", 10), schedule(1 + i), finish(f"c{i}", 10)]
    steps += [submit("b1", "B", 1), submit("a1", "A", 1), submit("c3", "C", 1), schedule(9)]
    want = ["ok"] * 6 + ["ok", started("a0"), "ok"]
    for i in range(3):
        want += ["ok", started(f"c{i}"), "ok"]
    want += ["ok", "ok", "ok", started("a1")]
    expect_session(impl, Session.of(steps, slots=1, fair=True), want, rule=RULE)


@pytest.mark.rules(11)
def test_virtual_time_is_exact_at_any_cost(impl: Implementation) -> None:
    """Weights 3, costs 10**17 + 1 and 10**17: y's virtual time is 1/3 below x's, so y's next
    job goes before x's. In floats both are 3.3333333333333332e16: a tie, and x would win it."""
    big = 10**17
    steps = [open_account("x", 3), deposit("x", 10 * big), open_account("y", 3)]
    steps += [deposit("y", 10 * big), submit("x0", "x", big + 1), submit("x1", "x", 1)]
    steps += [submit("y0", "y", big), submit("y1", "y", 1), schedule(0)]
    want = ["ok"] * 8 + [started("x0", "y0", "y1", "x1")]
    expect_session(impl, Session.of(steps, slots=4, fair=True), want, rule=RULE)


@pytest.mark.rules(12)
@given(
    st.lists(
        st.tuples(st.integers(1, 4), st.lists(st.integers(1, 6), min_size=24, max_size=24)),
        min_size=2,
        max_size=4,
    ),
)
def test_shares_stay_within_a_job_of_each_other(
    impl: Implementation, accounts: list[tuple[int, list[int]]]
) -> None:
    """Every account backlogged with jobs of any cost: at every prefix of the start order, two
    accounts' service per weight differs by at most the costliest job of each per weight.

    The bound holds while both accounts wait, so each has as many jobs as there are slots:
    however skewed the weights, none runs out."""
    steps: list[tuple[object, ...]] = []
    for i, (weight, costs) in enumerate(accounts):
        steps += [open_account(f"n{i}", weight), deposit(f"n{i}", 1_000)]
        steps += [submit(f"n{i}-{j}", f"n{i}", cost) for j, cost in enumerate(costs)]
    slots = 6 * len(accounts)  # at most a quarter of any backlog: all stay backlogged
    cost_of = {f"n{i}-{j}": c for i, (_, costs) in enumerate(accounts) for j, c in enumerate(costs)}

    def within_bound(transcript: object) -> bool:
        order = transcript.observations[-1][1]  # type: ignore[attr-defined]
        served = [Fraction(0)] * len(accounts)
        bound = [Fraction(max(costs), weight) for weight, costs in accounts]
        for job in order:
            i = int(str(job)[1 : str(job).index("-")])
            served[i] += Fraction(cost_of[job], accounts[i][0])
            for x in range(len(accounts)):
                for y in range(len(accounts)):
                    if served[x] - served[y] > bound[x] + bound[y]:
                        return False
        return len(order) == slots

    expect_that(
        impl,
        [session(Session.of([*steps, schedule(0)], slots=slots, fair=True))],
        within_bound,
        claim="each prefix's service per weight differs by at most one job per weight",
        rule=RULE,
    )
