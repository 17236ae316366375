"""A decision pops heaps: its work grows with log n, not with the n jobs running.

A cluster of 2n GPUs, one tenant idle within its quota of n, the other
running 2n one-GPU jobs, n of them borrowed. Forty times: the idle tenant
asks for one GPU (a reclaim of one borrowed job), then that job finishes
and the preempted one starts again. Counted (kata/cost.py): the
Python lines per round at n and at 8n; a scheduler that rescans or sorts the
running jobs to find a victim does 8x the work.
"""

from __future__ import annotations

import pytest

from kata.checks import expect
from kata.cost import Growth
from kata.impl import Implementation
from tests.support.preempting import cost

pytestmark = [pytest.mark.quota_cost, pytest.mark.rules(18)]

JOBS = 100
LIMIT = 3.0  # log n grows ~1.5x for 8x the jobs; a rescan 8x
RULE = (
    "keep each tenant's running jobs in a heap in preemption order (and its queue in a heap), "
    "pruned lazily: a victim is popped, never found by looking at every running job."
)


def test_a_reclaim_costs_the_same_with_eight_times_the_jobs_running(
    impl: Implementation,
) -> None:
    expect(impl, cost(JOBS, LIMIT), Growth(level=True, limit=LIMIT, unit="decision"), rule=RULE)
