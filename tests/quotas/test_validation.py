"""Integers, a configuration the cluster can honour, and refusals that change nothing."""

from __future__ import annotations

from typing import Any

import pytest

from kata.checks import expect, expect_value_error
from kata.impl import Implementation
from tests.support.preempting import (
    Session,
    Step,
    cancel,
    construction,
    construction_from_a_generator,
    decided,
    expect_session,
    finish,
    lost,
    schedule,
    state,
    submit,
    usage,
    used,
)

pytestmark = pytest.mark.quota_validation

RULE = (
    "an operation that cannot be honoured raises ValueError and changes nothing: a bad "
    "configuration, a job that could never run, an unknown job or tenant, a duplicate id, "
    "a call in the wrong state, a time gone back; every number is an int, never a float or a bool."
)
TENANTS = [("a", 4, 2), ("b", 4)]
SETUP = [submit(1, "a", 2, 0), submit(2, "a", 5, 0), schedule(0)]  # 2 + 5 is past a's limit
DONE = ["ok", "ok", decided([1])]


@pytest.mark.rules(2)
@pytest.mark.parametrize(
    ("capacity", "tenants", "options", "problem"),
    [
        (0, [("a", 0)], {}, "a capacity of 0"),
        (8, [], {}, "no tenants"),
        (8, [("a", 2), ("a", 2)], {}, "two tenants named a"),
        (8, [("a", -1)], {}, "a negative quota"),
        (8, [("a", 2, -1)], {}, "a negative borrowing limit"),
        (8, [("a", 5), ("b", 4)], {}, "quotas of 9 on 8 GPUs"),
        (8, [("a", 2)], {"min_run": -1}, "a negative min_run"),
    ],
)
def test_a_configuration_the_cluster_cannot_honour_is_refused(
    impl: Implementation,
    capacity: int,
    tenants: list[tuple[Any, ...]],
    options: dict[str, Any],
    problem: str,
) -> None:
    expect_value_error(impl, construction(capacity, tenants, **options), problem)


@pytest.mark.rules(2)
@pytest.mark.parametrize(
    ("tenants", "problem"),
    [
        ([("a", 5), ("b", 4)], "quotas of 9 on 8 GPUs"),
        ([("a", 2), ("a", 2)], "two tenants named a"),
    ],
)
def test_tenants_from_a_generator_are_checked_as_a_list_is(
    impl: Implementation, tenants: list[tuple[Any, ...]], problem: str
) -> None:
    """The tenants may be any iterable, read once: a check that reads them first and keeps
    them after finds nothing the second time, or checks nothing."""
    expect_value_error(impl, construction_from_a_generator(8, tenants), problem)


@pytest.mark.rules(2)
def test_tenants_from_a_generator_make_a_scheduler(impl: Implementation) -> None:
    rule = "the tenants may be any iterable, read once."
    expect(impl, construction_from_a_generator(8, [("a", 4), ("b", 4)]), "made", rule=rule)


@pytest.mark.rules(2)
def test_quotas_may_add_up_to_exactly_the_capacity(impl: Implementation) -> None:
    """4 + 4 on 8 GPUs is a promise the cluster can keep; a quota of 0 is a tenant that only
    borrows."""
    expect(impl, construction(8, [("a", 4), ("b", 4), ("c", 0)]), "made", rule=RULE)


@pytest.mark.rules(1)
@pytest.mark.parametrize(
    ("capacity", "tenants", "options", "problem"),
    [
        (8.0, [("a", 2)], {}, "a float capacity"),
        (True, [("a", 0)], {}, "a bool capacity"),
        (8, [("a", 0.1 + 0.2)], {}, "a float quota"),
        (8, [("a", 2, 1.5)], {}, "a float borrowing limit"),
        (8, [("a", 2)], {"min_run": 1.0}, "a float min_run"),
    ],
)
def test_numbers_of_the_configuration_are_ints(
    impl: Implementation,
    capacity: Any,
    tenants: list[tuple[Any, ...]],
    options: dict[str, Any],
    problem: str,
) -> None:
    """0.1 + 0.2 GPUs against a quota of 0.3 is over quota in floats: quotas are integers."""
    expect_value_error(impl, construction(capacity, tenants, **options), problem)


@pytest.mark.rules(1, 3, 4, 5, 6)
@pytest.mark.parametrize(
    "bad",
    [
        submit(1, "a", 1, 1),  # an id used before
        submit(9, "nobody", 1, 1),
        submit(9, "a", 0, 1),
        submit(9, "a", 7, 1),  # above a's limit of 6
        submit(9, "a", 2.0, 1),  # type: ignore[arg-type]  # a float count, on purpose
        submit(9, "a", True, 1),  # a bool count
        submit(9, "a", 1, 1, priority=1.5),  # type: ignore[arg-type]  # on purpose
        submit(9, "a", 5, 1, preemptible=False),  # more than a's quota, never preemptible
        submit(9, "a", 1, 1, checkpoint_every=0),
        submit(9, "a", 1, -1),  # time gone back
        submit(9, "a", 1, 0.5),  # type: ignore[arg-type]  # a float time
        finish(2, 1),  # queued, not running
        finish(9, 1),
        finish(1, -1),
        cancel(9, 1),
        cancel(1, -1),
        schedule(-1),
        state(9),
        usage("nobody"),
        lost("nobody"),
    ],
    ids=lambda step: "-".join(map(str, step)),
)
def test_an_impossible_operation_changes_nothing(impl: Implementation, bad: Step) -> None:
    after = [usage("a"), state(1), state(2)]
    want = [*DONE, "ValueError", used("a", 2), "running", "queued"]
    expect_session(impl, Session.of(8, TENANTS, [*SETUP, bad, *after]), want, rule=RULE)


@pytest.mark.rules(5)
def test_an_ended_job_cannot_end_again(impl: Implementation) -> None:
    steps = [*SETUP, finish(1, 1), finish(1, 1), cancel(1, 1), cancel(2, 1), cancel(2, 1)]
    steps += [finish(2, 1), state(1), state(2), usage("a")]
    want = [*DONE, "ok", "ValueError", "ValueError", "ok", "ValueError", "ValueError"]
    want += ["finished", "cancelled", used("a", 0)]
    expect_session(impl, Session.of(8, TENANTS, steps), want, rule=RULE)


@pytest.mark.rules(4, 6)
def test_the_id_of_an_ended_job_is_still_taken(impl: Implementation) -> None:
    """Job 1 finished; another job 1 is refused, and nothing of it starts later."""
    steps = [*SETUP, finish(1, 1), submit(1, "b", 1, 1), schedule(1), usage("b")]
    want = [*DONE, "ok", "ValueError", decided([2]), used("b", 0)]
    expect_session(impl, Session.of(8, TENANTS, steps), want, rule=RULE)


@pytest.mark.rules(6)
@pytest.mark.parametrize("refused", ["no GPU", "a checkpoint every 0 ticks"])
def test_a_refused_submission_leaves_no_trace(impl: Implementation, refused: str) -> None:
    """A job of 0 GPUs, or one checkpointing every 0 ticks, is refused: its id is unknown
    after it, and free for a valid job."""
    bad = (
        submit("x", "b", 0, 0)
        if refused == "no GPU"
        else submit("x", "b", 1, 0, checkpoint_every=0)
    )
    steps = [bad, state("x"), submit("x", "b", 1, 0), schedule(0), state("x")]
    want = ["ValueError", "ValueError", "ok", decided(["x"]), "running"]
    expect_session(impl, Session.of(8, TENANTS, steps), want, rule=RULE)


@pytest.mark.rules(3)
def test_time_may_stand_still_but_never_go_back(impl: Implementation) -> None:
    steps = [*SETUP, schedule(0), submit(3, "b", 1, 5), schedule(4), cancel(3, 4), schedule(5)]
    want = [*DONE, decided(), "ok", "ValueError", "ValueError", decided([3])]
    expect_session(impl, Session.of(8, TENANTS, steps), want, rule=RULE)


@pytest.mark.rules(5)
def test_a_queued_job_may_be_cancelled_and_never_runs(impl: Implementation) -> None:
    steps = [submit(1, "b", 4, 0), submit(2, "b", 1, 0), cancel(1, 0), schedule(0), state(1)]
    want = ["ok", "ok", "ok", decided([2]), "cancelled"]
    expect_session(impl, Session.of(8, TENANTS, steps), want, rule=RULE)


@pytest.mark.rules(3, 6)
def test_the_time_of_a_refused_call_has_not_passed(impl: Implementation) -> None:
    """Refused calls at 10 (a job of 0 GPUs, an unknown job's end): the clock stays at 0,
    and a call at 5 is accepted."""
    steps = [submit("x", "b", 0, 10), finish("nobody", 10), cancel("nobody", 10)]
    steps += [submit("y", "b", 1, 5), schedule(5)]
    want = ["ValueError", "ValueError", "ValueError", "ok", decided(["y"])]
    expect_session(impl, Session.of(8, TENANTS, steps), want, rule=RULE)


@pytest.mark.rules(4)
def test_a_limit_is_never_more_than_the_capacity(impl: Implementation) -> None:
    """a may borrow 10 beyond its quota of 4, on 8 GPUs: its limit is 8, and a job of 9 GPUs
    could never run: refused, not queued forever."""
    steps = [submit("big", "a", 9, 0), submit("all", "a", 8, 0), schedule(0)]
    want = ["ValueError", "ok", decided(["all"])]
    expect_session(impl, Session.of(8, [("a", 4, 10), ("b", 4)], steps), want, rule=RULE)
