"""Reclaim: a head within its tenant's quota takes back what others hold over theirs, in
Kueue's order, no victim more than it needs, all or nothing."""

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

pytestmark = pytest.mark.quota_reclaim

RULE = (
    "a head that does not fit but keeps its tenant within its quota preempts jobs of other "
    "tenants over their quota: preemptible and run at least min_run; "
    "lowest priority first, then latest started, then latest submitted; each taken only "
    "while its tenant, less what was taken from it, is over its quota; until the head fits; "
    "then, from the next-to-last taken back to the first, each one the head fits without is "
    "spared; if all of them would not do, nothing is preempted."
)
HALVES = [("a", 4), ("b", 4)]


@pytest.mark.rules(11)
def test_a_tenant_within_its_quota_takes_back_what_was_borrowed(impl: Implementation) -> None:
    """b borrowed a's idle half (four 2-GPU jobs); a asks for 4: b's two newest go."""
    steps = [submit(f"b{i}", "b", 2, 0) for i in range(1, 5)] + [schedule(0)]
    steps += [submit("a1", "a", 4, 1), schedule(1), usage("b")]
    want = ["ok"] * 4 + [decided(["b1", "b2", "b3", "b4"]), "ok"]
    want += [decided(["a1"], ["b3", "b4"]), used("b", 4)]
    expect_session(impl, Session.of(8, HALVES, steps), want, rule=RULE)


@pytest.mark.rules(11)
def test_the_lowest_priority_goes_first_whatever_its_age(impl: Implementation) -> None:
    """b's jobs at priorities 1, 0, 2, 1: a needs 2, and b2, priority 0, goes, though it is
    neither the newest started nor the newest submitted."""
    steps = [submit(f"b{i}", "b", 2, 0, priority=p) for i, p in ((1, 1), (2, 0), (3, 2), (4, 1))]
    steps += [schedule(0), submit("a1", "a", 2, 1), schedule(1)]
    want = ["ok"] * 4 + [decided(["b3", "b1", "b4", "b2"]), "ok", decided(["a1"], ["b2"])]
    expect_session(impl, Session.of(8, HALVES, steps), want, rule=RULE)


@pytest.mark.rules(11)
def test_the_latest_started_goes_before_the_latest_submitted(impl: Implementation) -> None:
    """min_run 10. b3 (started at 5) is too young at 10, so b1 goes; b1 starts again at 11.
    At 30, b1 is the latest started though b3 was submitted after it: b1 goes again."""
    tenants = [("a", 4), ("b", 4), ("c", 4)]
    steps = [submit("b1", "b", 4, 0), submit("c0", "c", 4, 0), schedule(0)]
    steps += [submit("b3", "b", 4, 5), schedule(5), submit("a1", "a", 4, 10), schedule(10)]
    steps += [finish("a1", 11), schedule(11), submit("a2", "a", 4, 30), schedule(30)]
    want = ["ok", "ok", decided(["b1", "c0"]), "ok", decided(["b3"]), "ok"]
    want += [decided(["a1"], ["b1"]), "ok", decided(["b1"]), "ok", decided(["a2"], ["b1"])]
    expect_session(impl, Session.of(12, tenants, steps, min_run=10), want, rule=RULE)


@pytest.mark.rules(11)
def test_a_tenant_gives_back_only_while_it_is_over_its_quota(impl: Implementation) -> None:
    """b and c are each 1 GPU over their quota of 2; a needs 2 more than is free. c2 goes
    (c is then at its quota, so c1 is spared), then b2: one job from each borrower."""
    tenants = [("a", 4), ("b", 2), ("c", 2)]
    steps = [submit("b1", "b", 2, 0), submit("b2", "b", 1, 0), submit("c1", "c", 2, 0)]
    steps += [submit("c2", "c", 1, 0), schedule(0), submit("a1", "a", 4, 1), schedule(1)]
    want = ["ok"] * 4 + [decided(["b1", "c1", "b2", "c2"]), "ok", decided(["a1"], ["c2", "b2"])]
    expect_session(impl, Session.of(8, tenants, steps), want, rule=RULE)


@pytest.mark.rules(11)
def test_the_cut_spares_from_the_next_to_last_back(impl: Implementation) -> None:
    """a needs 4; taken in order b2 (1 GPU), b1 (1), b0 (3): 5 freed. From the next-to-last
    back: without b1 the head still fits (4), so b1 is spared; then b2 is needed. Cut from
    the first instead, b2 would be spared and b1 preempted."""
    tenants = [("a", 4), ("b", 4), ("c", 4)]
    steps = [submit("b0", "b", 3, 0), submit("b1", "b", 1, 0), submit("b2", "b", 1, 0)]
    steps += [submit("b3", "b", 4, 0, priority=9), submit("c0", "c", 3, 0), schedule(0)]
    steps += [submit("a1", "a", 4, 1), schedule(1)]
    want = ["ok"] * 5 + [decided(["b3", "c0", "b0", "b1", "b2"]), "ok"]
    want += [decided(["a1"], ["b2", "b0"])]
    expect_session(impl, Session.of(12, tenants, steps), want, rule=RULE)


@pytest.mark.rules(11)
def test_no_victim_is_kept_that_the_head_does_not_need(impl: Implementation) -> None:
    """Taken in order: b4 (1 GPU), b3 (1), b2 (4): b2 alone makes room for 4, so the two small
    ones are spared."""
    steps = [submit("b1", "b", 2, 0), submit("b2", "b", 4, 0), submit("b3", "b", 1, 0)]
    steps += [submit("b4", "b", 1, 0), schedule(0), submit("a1", "a", 4, 1), schedule(1)]
    want = ["ok"] * 4 + [decided(["b1", "b2", "b3", "b4"]), "ok", decided(["a1"], ["b2"])]
    expect_session(impl, Session.of(8, HALVES, steps), want, rule=RULE)


@pytest.mark.rules(11, 13)
def test_across_tenants_priority_does_not_protect_borrowed_gpus(impl: Implementation) -> None:
    """a borrows at priority 9; b, within its quota at priority 0, takes its GPUs back."""
    steps = [submit("a1", "a", 4, 0), submit("a2", "a", 4, 0, priority=9), schedule(0)]
    steps += [submit("b1", "b", 4, 1), schedule(1)]
    want = ["ok", "ok", decided(["a2", "a1"]), "ok", decided(["b1"], ["a1"])]
    expect_session(impl, Session.of(8, HALVES, steps), want, rule=RULE)


@pytest.mark.rules(11, 17)
def test_a_job_younger_than_min_run_is_never_preempted(impl: Implementation) -> None:
    """min_run 10: b's borrowed job started at 0 is safe at 9, reclaimable at 10."""
    steps = [submit("b1", "b", 4, 0), submit("b2", "b", 4, 0), schedule(0)]
    steps += [submit("a1", "a", 4, 9), schedule(9), schedule(10)]
    want = ["ok", "ok", decided(["b1", "b2"]), "ok", decided(), decided(["a1"], ["b2"])]
    expect_session(impl, Session.of(8, HALVES, steps, min_run=10), want, rule=RULE)


@pytest.mark.rules(13)
def test_all_or_nothing(impl: Implementation) -> None:
    """min_run 10. At 10, b3 is too young and b1 may not be preempted: b2 alone frees 2 of
    the 4 a needs, so nothing is preempted. At 15, b3 and b2 together make room."""
    steps = [submit("b1", "b", 4, 0, preemptible=False), submit("b2", "b", 2, 0), schedule(0)]
    steps += [submit("b3", "b", 2, 5), schedule(5), submit("a1", "a", 4, 10), schedule(10)]
    steps += [schedule(15)]
    want = ["ok", "ok", decided(["b1", "b2"]), "ok", decided(["b3"]), "ok", decided()]
    want += [decided(["a1"], ["b2", "b3"])]
    expect_session(impl, Session.of(8, HALVES, steps, min_run=10), want, rule=RULE)


@pytest.mark.rules(13)
def test_a_tenant_within_its_quota_is_never_a_victim(impl: Implementation) -> None:
    """a is 1 GPU over its quota, b exactly at its own; c asks for 2 with 1 free. b1 is the
    newest job, yet only a's borrowed GPU may go: x is preempted, b1 is not."""
    tenants = [("a", 3), ("b", 3), ("c", 2)]
    steps = [submit("a1", "a", 3, 0), submit("x", "a", 1, 0), submit("b1", "b", 3, 0)]
    steps += [schedule(0), submit("c1", "c", 2, 1), schedule(1)]
    want = ["ok", "ok", "ok", decided(["a1", "b1", "x"]), "ok", decided(["c1"], ["x"])]
    expect_session(impl, Session.of(8, tenants, steps), want, rule=RULE)


@pytest.mark.rules(16)
def test_a_tenant_gets_its_whole_quota_back_from_jobs_that_straddle_it(
    impl: Implementation,
) -> None:
    """b (quota 8) runs three 5-GPU jobs, 15 GPUs; a asks for its 8. Taking only what is
    over b's quota would stop at one job (b at 10): two go, b keeps 5, and a gets its 8."""
    steps = [submit(f"b{i}", "b", 5, 0) for i in (1, 2, 3)] + [schedule(0)]
    steps += [submit("a1", "a", 8, 1), schedule(1), usage("a"), usage("b")]
    want = ["ok"] * 3 + [decided(["b1", "b2", "b3"]), "ok", decided(["a1"], ["b2", "b3"])]
    want += [used("a", 8), used("b", 5)]
    expect_session(impl, Session.of(16, [("a", 8), ("b", 8)], steps), want, rule=RULE)


@pytest.mark.rules(11)
def test_with_reclaim_off_a_guaranteed_head_waits(impl: Implementation) -> None:
    """reclaim=False: borrowed GPUs come back only when the borrower's jobs end."""
    steps = [submit("b1", "b", 4, 0), submit("b2", "b", 4, 0), schedule(0)]
    steps += [submit("a1", "a", 4, 1), schedule(1), finish("b2", 2), schedule(2)]
    want = ["ok", "ok", decided(["b1", "b2"]), "ok", decided(), "ok", decided(["a1"])]
    expect_session(impl, Session.of(8, HALVES, steps, reclaim=False), want, rule=RULE)
