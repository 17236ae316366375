"""A scheduling decision costs O(log n) in the waiting jobs: never a rescan of all of them.

Work is the Python lines executed (tests/support/cost.py), never time.  Two
accounts with n waiting jobs each; fifty decisions (a start, then the job
ends) are measured at n and at 8n: a heap's work per decision grows like
log n, a rescan's like n.
"""

from __future__ import annotations

import pytest

from tests.support.checks import expect
from tests.support.cost import Growth, cost_question
from tests.support.crediting import per_decision
from tests.support.impl import Implementation
from tests.support.outcomes import Question

pytestmark = pytest.mark.credits_scaling

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
