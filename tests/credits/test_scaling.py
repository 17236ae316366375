"""A scheduling decision costs O(log n) in the waiting jobs: never a rescan of all of them.

Work is the Python lines executed (tests/support/cost.py), never time.  Two
accounts with n waiting jobs each; fifty decisions (a start, then the job
ends) are measured at n and at 8n: a heap's work per decision grows like
log n, a rescan's like n.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from tests.support.checks import expect
from tests.support.cost import Counted, Growth, cost_question, work
from tests.support.impl import Implementation
from tests.support.outcomes import Question

pytestmark = pytest.mark.credits_scaling

JOBS, DECISIONS = 100, 50
LIMIT = 3.0  # log n grows ~1.5x for 8x the jobs; a rescan 8x
RULE = (
    "keep each account's waiting jobs in a priority queue (a heap) and pick among the "
    "accounts' heads: never look at every waiting job to choose the next."
)


def per_decision(impl: Implementation) -> Callable[[int], float]:
    scheduler, config, job = (
        impl.require("Scheduler"),
        impl.type_named("Config"),
        impl.type_named("Job"),
    )

    def measure(count: int) -> float:
        s = scheduler(config(slots=1))
        for name in ("a", "b"):
            s.open_account(name)
            s.deposit(name, 10**9)
            for i in range(count):
                s.submit(job(f"{name}{i}", name, Counted(1 + i % 7), Counted(i % 5)))

        def decide() -> None:
            for now in range(DECISIONS):
                (started,) = s.schedule(now=now)
                s.finish(started, 1)

        return work(decide) / DECISIONS

    return measure


def question() -> Question:
    return cost_question(
        f"fifty decisions with {JOBS}, then {8 * JOBS} jobs waiting in each of two accounts",
        per_decision,
        JOBS,
        limit=LIMIT,
        unit="decision",
    )


def test_a_decision_costs_the_same_with_eight_times_the_jobs_waiting(impl: Implementation) -> None:
    expect(impl, question(), Growth(level=True, limit=LIMIT, unit="decision"), rule=RULE)
