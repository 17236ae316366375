"""A scheduling decision costs O(log n) in the waiting jobs: never a rescan of all of them.

Measured two ways (kata/cost.py).  Counted, with n waiting jobs in
each of two accounts, at n and at 8n: the Python lines of fifty decisions (a
start, then the job ends): a heap's work per decision grows like log n, a
rescan's like n; the same on any machine.  Timed, with n jobs waiting in one
account, at 5,000 and 320,000: the CPU time of one decision, the least of
several tries: the CPU clock sees a queue shifted in C (`list.pop(0)`), which
no count sees, and no machine or load changes the verdict.
"""

from __future__ import annotations

import pytest

from kata.checks import expect
from kata.cost import CPU_US, TIMED_GROWTH, TIMED_LEVEL, Growth, cost_question
from kata.impl import Implementation
from kata.outcomes import Question
from tests.support.crediting import per_decision, timed_decisions_question

pytestmark = [pytest.mark.credits_scaling, pytest.mark.rules(16)]

JOBS = 100
LIMIT = 3.0  # log n grows ~1.5x for 8x the jobs; a rescan 8x
RULE = (
    "keep each account's waiting jobs in a priority queue (a heap) and pick among the "
    "accounts' heads: never look at every waiting job to choose the next."
)


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


def test_a_decision_takes_the_same_cpu_time_with_sixty_four_times_the_jobs_waiting(
    impl: Implementation,
) -> None:
    """The CPU clock sees what a count cannot: a queue shifted in C (`list.pop(0)`, a copy
    of a sorted list) grows sixfold and more with sixty-four times the jobs."""
    expect(
        impl,
        timed_decisions_question(),
        Growth(level=True, limit=TIMED_LEVEL, unit="decision", measure=CPU_US, factor=TIMED_GROWTH),
        rule=RULE,
    )
