"""Within a tenant, a head preempts only strictly lower priorities, and only when it cannot
fit by reclaim; never both at once."""

from __future__ import annotations

import pytest

from kata.impl import Implementation
from tests.support.preempting import Session, decided, expect_session, schedule, submit

pytestmark = pytest.mark.quota_priority

RULE = (
    "a head that does not fit and cannot fit by reclaim preempts its own tenant's running "
    "jobs of strictly lower priority (preemptible, run at least min_run), lowest priority "
    "first, then latest started, then latest submitted, until it fits its tenant's limit and "
    "the free GPUs; the same cut; all or nothing; reclaim and priority are never mixed."
)
HALVES = [("a", 4, 0), ("b", 4)]


@pytest.mark.rules(12)
def test_a_higher_priority_job_preempts_lower_ones_of_its_tenant(impl: Implementation) -> None:
    """a may run 4 GPUs and runs two 2-GPU jobs at priority 0: hi (4 GPUs, priority 5) takes
    both places, though 4 GPUs are free elsewhere: a's limit is what binds."""
    steps = [submit("lo1", "a", 2, 0), submit("lo2", "a", 2, 0), schedule(0)]
    steps += [submit("hi", "a", 4, 1, priority=5), schedule(1)]
    want = ["ok", "ok", decided(["lo1", "lo2"]), "ok", decided(["hi"], ["lo1", "lo2"])]
    expect_session(impl, Session.of(8, HALVES, steps), want, rule=RULE)


@pytest.mark.rules(12, 13)
def test_equal_priority_preempts_nothing(impl: Implementation) -> None:
    steps = [submit("x", "a", 4, 0, priority=3), schedule(0), submit("y", "a", 4, 1, priority=3)]
    steps += [schedule(1)]
    want = ["ok", decided(["x"]), "ok", decided()]
    expect_session(impl, Session.of(8, HALVES, steps), want, rule=RULE)


@pytest.mark.rules(12)
def test_the_lowest_priority_of_the_tenant_goes_first(impl: Implementation) -> None:
    """a runs p2 (priority 2), p1 (priority 1), p0 (priority 0); hi (priority 3) needs 2:
    p0 goes, though p2 started last."""
    steps = [submit("p0", "a", 1, 0), schedule(0), submit("p1", "a", 1, 1, priority=1)]
    steps += [schedule(1), submit("p2", "a", 2, 2, priority=2), schedule(2)]
    steps += [submit("hi", "a", 1, 3, priority=3), schedule(3)]
    want = ["ok", decided(["p0"]), "ok", decided(["p1"]), "ok", decided(["p2"]), "ok"]
    want += [decided(["hi"], ["p0"])]
    expect_session(impl, Session.of(8, HALVES, steps), want, rule=RULE)


@pytest.mark.rules(11, 12)
def test_reclaim_comes_before_the_tenants_own_lower_priorities(impl: Implementation) -> None:
    """a runs lo (2 GPUs); b borrows 2. a's hi (2 GPUs, priority 5) stays within a's quota of
    4: it takes b's borrowed job, not a's own lower priority."""
    tenants = [("a", 4), ("b", 4)]
    steps = [submit("lo", "a", 2, 0), submit("b1", "b", 4, 0), submit("b2", "b", 2, 0)]
    steps += [schedule(0), submit("hi", "a", 2, 1, priority=5), schedule(1)]
    want = ["ok", "ok", "ok", decided(["lo", "b1", "b2"]), "ok", decided(["hi"], ["b2"])]
    expect_session(impl, Session.of(8, tenants, steps), want, rule=RULE)


@pytest.mark.rules(12)
def test_when_reclaim_cannot_make_room_a_lower_priority_gives_way(impl: Implementation) -> None:
    """min_run 10. b's borrowed b2 started at 5 is too young at 10 (and b1 may not be
    preempted): reclaim cannot make room, so a's own lo, running since 0, gives way to hi."""
    tenants = [("a", 4), ("b", 4)]
    steps = [submit("lo", "a", 2, 0), submit("b1", "b", 4, 0, preemptible=False), schedule(0)]
    steps += [submit("b2", "b", 2, 5), schedule(5), submit("hi", "a", 2, 10, priority=5)]
    steps += [schedule(10)]
    want = ["ok", "ok", decided(["lo", "b1"]), "ok", decided(["b2"]), "ok"]
    want += [decided(["hi"], ["lo"])]
    expect_session(impl, Session.of(8, tenants, steps, min_run=10), want, rule=RULE)


@pytest.mark.rules(12, 13)
def test_reclaim_and_priority_are_never_mixed(impl: Implementation) -> None:
    """hi needs 4: a's lo (2) would leave a within its limit but only 2 GPUs free; b's
    borrowed 2 would make the rest, but hi (2 + 4 > a's quota 4) may not reclaim. Neither
    way alone makes room: hi waits, and nothing is preempted."""
    tenants = [("a", 4), ("b", 4)]
    steps = [submit("lo", "a", 2, 0), submit("b1", "b", 4, 0), submit("b2", "b", 2, 0)]
    steps += [schedule(0), submit("hi", "a", 4, 1, priority=5), schedule(1)]
    want = ["ok", "ok", "ok", decided(["lo", "b1", "b2"]), "ok", decided()]
    expect_session(impl, Session.of(8, tenants, steps), want, rule=RULE)
