"""A preempted job is queued again at its place; its tenant loses the work since the job's
last checkpoint."""

from __future__ import annotations

import pytest

from kata.impl import Implementation
from tests.support.preempting import (
    Session,
    cancel,
    decided,
    expect_session,
    finish,
    loss,
    lost,
    schedule,
    state,
    submit,
)

pytestmark = pytest.mark.quota_preempted

RULE = (
    "a preempted job is queued again at its place (its priority and submission), not started "
    "again by the same call; its tenant's lost work grows by its GPUs times the ticks it ran "
    "since its last checkpoint: (now - started) % checkpoint_every, or now - started without "
    "checkpoints, started being its latest start."
)
HALVES = [("a", 4), ("b", 4)]


@pytest.mark.rules(14)
def test_a_preempted_job_keeps_its_place(impl: Implementation) -> None:
    """b2 is preempted for a1; b3 was queued behind it all along. When a1 ends, b2 starts
    again, not b3."""
    steps = [submit("b1", "b", 4, 0), submit("b2", "b", 4, 0), submit("b3", "b", 4, 0)]
    steps += [schedule(0), submit("a1", "a", 4, 1), schedule(1), state("b2")]
    steps += [finish("a1", 2), schedule(2)]
    want = ["ok", "ok", "ok", decided(["b1", "b2"]), "ok", decided(["a1"], ["b2"]), "queued"]
    want += ["ok", decided(["b2"])]
    expect_session(impl, Session.of(8, HALVES, steps), want, rule=RULE)


@pytest.mark.rules(14)
def test_work_since_the_last_checkpoint_is_lost(impl: Implementation) -> None:
    """Both of b's borrowed jobs ran 10 ticks on 2 GPUs when a reclaims them: the one that
    checkpoints every 3 ticks loses 1 tick (2 GPU-ticks), the other all 10 (20)."""
    steps = [submit("b1", "b", 4, 0), submit("b2", "b", 2, 0, checkpoint_every=3)]
    steps += [submit("b3", "b", 2, 0), schedule(0), submit("a1", "a", 4, 10), schedule(10)]
    steps += [lost("b"), lost("a")]
    want = ["ok", "ok", "ok", decided(["b1", "b2", "b3"]), "ok"]
    want += [decided(["a1"], ["b2", "b3"]), loss("b", 22), loss("a", 0)]
    expect_session(impl, Session.of(8, HALVES, steps), want, rule=RULE)


@pytest.mark.rules(14)
def test_checkpoints_count_from_the_jobs_start_not_from_tick_zero(impl: Implementation) -> None:
    """b's jobs start at 7; b2 checkpoints every 10 ticks of its run, at 17, so preempted at
    25 it loses 8 ticks (16 GPU-ticks), not 25 % 10 = 5; b3 loses its 18 (36)."""
    steps = [submit("b1", "b", 4, 7), submit("b2", "b", 2, 7, checkpoint_every=10)]
    steps += [submit("b3", "b", 2, 7), schedule(7), submit("a1", "a", 4, 25), schedule(25)]
    steps += [lost("b")]
    want = ["ok", "ok", "ok", decided(["b1", "b2", "b3"]), "ok"]
    want += [decided(["a1"], ["b2", "b3"]), loss("b", 52)]
    expect_session(impl, Session.of(8, HALVES, steps), want, rule=RULE)


@pytest.mark.rules(14)
def test_work_is_counted_from_the_latest_start(impl: Implementation) -> None:
    """b2 (4 GPUs, checkpoints every 3) is preempted at 10 (1 tick lost: 4), starts again at
    11, and is preempted at 20: 9 ticks since its restart, a checkpoint just made: 0 more."""
    steps = [submit("b1", "b", 4, 0), submit("b2", "b", 4, 0, checkpoint_every=3)]
    steps += [schedule(0), submit("a1", "a", 4, 10), schedule(10), finish("a1", 11)]
    steps += [schedule(11), submit("a2", "a", 4, 20), schedule(20), lost("b")]
    want = ["ok", "ok", decided(["b1", "b2"]), "ok", decided(["a1"], ["b2"]), "ok"]
    want += [decided(["b2"]), "ok", decided(["a2"], ["b2"]), loss("b", 4)]
    expect_session(impl, Session.of(8, HALVES, steps), want, rule=RULE)


@pytest.mark.rules(14)
def test_a_job_that_ends_normally_loses_nothing(impl: Implementation) -> None:
    steps = [submit("b1", "b", 4, 0), schedule(0), finish("b1", 50), lost("b")]
    want = ["ok", decided(["b1"]), "ok", loss("b", 0)]
    expect_session(impl, Session.of(8, HALVES, steps), want, rule=RULE)


@pytest.mark.rules(14)
def test_a_cancelled_job_loses_nothing(impl: Implementation) -> None:
    """Lost work is what a preemption throws away: a running job cancelled by its owner
    was given up, not taken, and counts as no loss."""
    steps = [submit("b1", "b", 2, 0), schedule(0), cancel("b1", 5), lost("b")]
    want = ["ok", decided(["b1"]), "ok", loss("b", 0)]
    expect_session(impl, Session.of(8, HALVES, steps), want, rule=RULE)


@pytest.mark.rules(14)
def test_a_preempted_job_does_not_start_again_in_the_same_call(impl: Implementation) -> None:
    """One call, two reclaims: a1 takes b2 (1 GPU), then c1 takes d2 (3 GPUs) and leaves 2
    free. b2 would fit in them, but b lost it in this very call: it starts at the next."""
    tenants = [("A", 2), ("B", 2), ("C", 2), ("D", 2)]
    steps = [submit("d1", "D", 2, 0), submit("d2", "D", 3, 0), submit("b1", "B", 2, 0)]
    steps += [submit("b2", "B", 1, 0), schedule(0), submit("a1", "A", 2, 1)]
    steps += [submit("c1", "C", 1, 1), schedule(1), schedule(2)]
    want = ["ok"] * 4 + [decided(["b1", "d1", "b2", "d2"]), "ok", "ok"]
    want += [decided(["a1", "c1"], ["b2", "d2"]), decided(["b2"])]
    expect_session(impl, Session.of(9, tenants, steps), want, rule=RULE)
