"""Strict within a tenant; guaranteed heads before borrowers, then by share; borrowing takes
only what is free."""

from __future__ import annotations

import pytest

from kata.impl import Implementation
from tests.support.preempting import (
    Session,
    decided,
    expect_session,
    finish,
    schedule,
    submit,
    usage,
    used,
)

pytestmark = pytest.mark.quota_order

RULE = (
    "each tenant serves its jobs in the order (higher priority, first submitted) and only its "
    "head may start; a head fits when its GPUs are free and its tenant stays within its limit "
    "(within its quota, for a job that may not be preempted); heads that keep their tenant "
    "within its quota go before borrowers, then the smallest usage / quota (quota 0: "
    "infinite), ties by the order the tenants were given; a borrower never preempts another "
    "tenant's job."
)


@pytest.mark.rules(7)
def test_a_head_that_cannot_start_holds_back_its_tenant(impl: Implementation) -> None:
    """a (quota 4, no borrowing) runs 1 GPU; its head needs 4: past its limit. The 1-GPU job
    behind it would fit, and must not start: it would take what the head waits for."""
    steps = [submit("a0", "a", 1, 0), schedule(0), submit("a1", "a", 4, 1), submit("a2", "a", 1, 1)]
    steps += [schedule(1), finish("a0", 2), schedule(2)]
    want = ["ok", decided(["a0"]), "ok", "ok", decided(), "ok", decided(["a1"])]
    expect_session(impl, Session.of(8, [("a", 4, 0), ("b", 4)], steps), want, rule=RULE)


@pytest.mark.rules(7)
def test_higher_priority_first_then_first_submitted(impl: Implementation) -> None:
    """a may run 2 GPUs: of x (priority 0), y and z (priority 5), y and z start, in that order."""
    steps = [submit("x", "a", 1, 0), submit("y", "a", 1, 0, priority=5)]
    steps += [submit("z", "a", 1, 0, priority=5), schedule(0)]
    want = ["ok", "ok", "ok", decided(["y", "z"])]
    expect_session(impl, Session.of(8, [("a", 2, 0), ("b", 6)], steps), want, rule=RULE)


@pytest.mark.rules(7)
def test_first_submitted_whatever_the_ids(impl: Implementation) -> None:
    """a9, a10, a1 submitted in that order, one priority: they start in that order. An id
    is a name, not an order: by id as text a1 would go first, by number a1 and a9."""
    steps = [submit("a9", "a", 1, 0), submit("a10", "a", 1, 0), submit("a1", "a", 1, 0)]
    steps += [schedule(0)]
    want = ["ok", "ok", "ok", decided(["a9", "a10", "a1"])]
    expect_session(impl, Session.of(8, [("a", 3, 0), ("b", 5)], steps), want, rule=RULE)


@pytest.mark.rules(8, 15)
def test_a_head_fits_within_its_tenants_limit(impl: Implementation) -> None:
    """a: quota 2, borrowing limit 1, so at most 3 GPUs: a 3-GPU job starts, a 1-GPU job
    after it waits though 5 GPUs are free."""
    steps = [submit("a1", "a", 3, 0), submit("a2", "a", 1, 0), schedule(0)]
    want = ["ok", "ok", decided(["a1"])]
    expect_session(impl, Session.of(8, [("a", 2, 1), ("b", 6)], steps), want, rule=RULE)


@pytest.mark.rules(8)
def test_a_job_that_may_not_be_preempted_never_borrows(impl: Implementation) -> None:
    """a's quota is 2. n1 (2 GPUs, not preemptible) starts; n2 (1 GPU, not preemptible) would
    run on borrowed GPUs nobody could take back: it waits, with GPUs free, and so does p1."""
    steps = [submit("n1", "a", 2, 0, preemptible=False), submit("n2", "a", 1, 0, preemptible=False)]
    steps += [submit("p1", "a", 1, 0), schedule(0), finish("n1", 1), schedule(1)]
    want = ["ok", "ok", "ok", decided(["n1"]), "ok", decided(["n2", "p1"])]
    expect_session(impl, Session.of(8, [("a", 2), ("b", 6)], steps), want, rule=RULE)


@pytest.mark.rules(8)
def test_only_unpreemptible_jobs_count_against_the_quota_of_one(impl: Implementation) -> None:
    """a's quota is 2; p1 (2 GPUs, preemptible) runs. n1 (2 GPUs, not preemptible) starts
    beside it: a then holds 4, 2 of them borrowed, but the borrowed ones are p1's, which
    can be given back. Counting p1 against n1 would keep n1 waiting with GPUs free."""
    steps = [submit("p1", "a", 2, 0), schedule(0), submit("n1", "a", 2, 1, preemptible=False)]
    steps += [schedule(1), usage("a")]
    want = ["ok", decided(["p1"]), "ok", decided(["n1"]), used("a", 4)]
    expect_session(impl, Session.of(8, [("a", 2), ("b", 6)], steps), want, rule=RULE)


@pytest.mark.rules(9)
def test_a_guaranteed_head_starts_before_a_borrower(impl: Implementation) -> None:
    """Both tenants idle, shares equal: a's a1 (6 GPUs) would borrow, b's b1 (4) is within
    b's quota. b1 starts first, though a was given first, and a1 waits: started first, a1
    would only be preempted for b1 a moment later."""
    steps = [submit("a1", "a", 6, 0), submit("b1", "b", 4, 0), schedule(0)]
    want = ["ok", "ok", decided(["b1"])]
    expect_session(impl, Session.of(8, [("a", 4), ("b", 4)], steps), want, rule=RULE)


@pytest.mark.rules(9)
def test_the_smallest_share_goes_first_ties_by_the_order_given(impl: Implementation) -> None:
    """Shares before: prod 2/4, batch 0/2, dev 1/2. batch goes first; then prod and dev tie at
    1/2, and prod, given first, goes before dev (not by name)."""
    tenants = [("prod", 4), ("batch", 2), ("dev", 2)]
    steps = [submit("p0", "prod", 2, 0), submit("d0", "dev", 1, 0), schedule(0)]
    steps += [submit("p1", "prod", 1, 1), submit("b1", "batch", 1, 1), submit("d1", "dev", 1, 1)]
    steps += [schedule(1)]
    want = ["ok", "ok", decided(["p0", "d0"]), "ok", "ok", "ok", decided(["b1", "p1", "d1"])]
    expect_session(impl, Session.of(8, tenants, steps), want, rule=RULE)


@pytest.mark.rules(9)
def test_shares_are_compared_exactly_at_any_size(impl: Implementation) -> None:
    """d (quota 2**60 - 3, given first) runs 2**59 - 1 GPUs, p (quota 2**60) runs 2**59.
    p's share is 1/2, d's is 1/2 + about 2**-61: p goes first. As floats both are 0.5,
    and the tie would give d first."""
    big = 2**60
    tenants = [("d", big - 3), ("p", big)]
    steps = [submit("d0", "d", big // 2 - 1, 0), submit("p0", "p", big // 2, 0), schedule(0)]
    steps += [submit("d1", "d", 1, 1), submit("p1", "p", 1, 1), schedule(1)]
    want = ["ok", "ok", decided(["d0", "p0"]), "ok", "ok", decided(["p1", "d1"])]
    expect_session(impl, Session.of(2 * big, tenants, steps), want, rule=RULE)


@pytest.mark.rules(9)
def test_shares_are_compared_again_after_each_start(impl: Implementation) -> None:
    """Two tenants of quota 4, two 1-GPU jobs each, all within quota: they alternate."""
    steps = [submit("p1", "p", 1, 0), submit("p2", "p", 1, 0), submit("d1", "d", 1, 0)]
    steps += [submit("d2", "d", 1, 0), schedule(0)]
    want = ["ok", "ok", "ok", "ok", decided(["p1", "d1", "p2", "d2"])]
    expect_session(impl, Session.of(8, [("p", 4), ("d", 4)], steps), want, rule=RULE)


@pytest.mark.rules(9)
def test_a_tenant_without_a_quota_borrows_last(impl: Implementation) -> None:
    """Two borrowers for 2 free GPUs: b (share 2/2) before scratch (quota 0: an infinite
    share), though scratch was given first."""
    tenants = [("scratch", 0), ("b", 2), ("c", 6)]
    steps = [submit("b0", "b", 2, 0), submit("c0", "c", 4, 0), schedule(0)]
    steps += [submit("s1", "scratch", 1, 1), submit("b1", "b", 1, 1), submit("b2", "b", 1, 1)]
    steps += [schedule(1)]
    want = ["ok", "ok", decided(["b0", "c0"]), "ok", "ok", "ok", decided(["b1", "b2"])]
    expect_session(impl, Session.of(8, tenants, steps), want, rule=RULE)


@pytest.mark.rules(10)
def test_a_borrower_never_preempts_another_tenant(impl: Implementation) -> None:
    """c (quota 0) borrows 4 GPUs; a's next job would borrow too: it waits for free GPUs,
    though c is over its quota. Only a head within its quota may reclaim."""
    tenants = [("a", 2), ("b", 2), ("c", 0)]
    steps = [submit("a1", "a", 2, 0), submit("b1", "b", 2, 0), submit("c1", "c", 4, 0)]
    steps += [schedule(0), submit("a2", "a", 2, 1), schedule(1), finish("c1", 2), schedule(2)]
    want = ["ok", "ok", "ok", decided(["a1", "b1", "c1"]), "ok", decided(), "ok"]
    want += [decided(["a2"])]
    expect_session(impl, Session.of(8, tenants, steps), want, rule=RULE)


@pytest.mark.rules(9, 16)
def test_no_borrower_starts_while_a_guaranteed_head_waits(impl: Implementation) -> None:
    """min_run 10. a0 (within a's quota) waits at 6 for b's young jobs. At 8 one of them
    ends and b1 would borrow the freed GPU: it must not, or a0 would wait for b1 to age, and
    then for the next borrower, for ever. At 15, b's job of 5 is old enough: a0 starts."""
    steps = [submit("b0", "b", 1, 0), schedule(0), submit("bx", "b", 1, 5), schedule(5)]
    steps += [submit("a0", "a", 2, 6), schedule(6), finish("b0", 8), submit("b1", "b", 1, 8)]
    steps += [schedule(8), schedule(15)]
    want = ["ok", decided(["b0"]), "ok", decided(["bx"]), "ok", decided(), "ok", "ok"]
    want += [decided(), decided(["a0"], ["bx"])]
    expect_session(impl, Session.of(2, [("a", 2), ("b", 0)], steps, min_run=10), want, rule=RULE)
