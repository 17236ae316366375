"""A plan in O(n log n), and the largest micro-batch computed: work counted, never timed.

Work is the Python lines executed (kata/cost.py), at n and at 8n.  A plan sorts each
window and makes one pass: its work per sequence stays level.  Looking at every member
of the open micro-batch for each sequence (its longest, its tokens), at every window, or
at every micro-batch of the open step, grows with n.  largest_batch divides: its work
does not grow with its answer, where trying b = 0, 1, 2, ... does.
"""

from __future__ import annotations

import pytest

from kata.checks import expect
from kata.cost import LEVEL, Growth
from kata.impl import Implementation
from tests.support.remembering import WORKLOADS, largest_cost_question, plan_cost_question

pytestmark = pytest.mark.memory_cost

SEQUENCES = 128
ANSWER = 500  # the largest batch, then 8x as large
PLAN = (
    "plan_batches takes O(n log n): sort each window, then one pass; the open micro-batch's "
    "longest sequence is the one that just joined (shortest first), and its size and tokens "
    "are kept as it grows: never a rescan of the open micro-batch, of the step or the input."
)
LARGEST = (
    "largest_batch is computed, never found by trying each b in turn: the peak is linear in b, "
    "so the answer is (memory - states) // one sequence's activations."
)


@pytest.mark.rules(11)
@pytest.mark.parametrize("workload", WORKLOADS)
def test_a_plan_costs_the_same_per_sequence_with_eight_times_the_sequences(
    impl: Implementation, workload: str
) -> None:
    """One micro-batch of every sequence (a rescan of it grows), and small windows in one step
    (a rescan of the windows or of the step grows)."""
    expect(
        impl,
        plan_cost_question(workload, SEQUENCES, LEVEL),
        Growth(level=True, limit=LEVEL, unit="sequence"),
        rule=PLAN,
    )


@pytest.mark.rules(3)
def test_the_largest_batch_costs_the_same_however_large_it_is(impl: Implementation) -> None:
    """Eight times the memory for activations, eight times the answer: the same work."""
    expect(
        impl,
        largest_cost_question(ANSWER, LEVEL),
        Growth(level=True, limit=LEVEL, unit="call"),
        rule=LARGEST,
    )
