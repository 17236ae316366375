"""overlapping_jobs in O(n log n + pairs), counted: never every interval against every other.

Work is the Python lines executed (kata/cost.py), never time.  On a staircase of
intervals, each overlapping only the next, pairs grow linearly with n: the
sweep's work per interval grows like log n at most, all pairs' like n.
"""

from __future__ import annotations

import pytest

from kata.checks import expect
from kata.cost import Growth, cost_question
from kata.impl import Implementation, load_here
from kata.outcomes import Question, ask
from tests.support.sweeping import per_interval

pytestmark = [pytest.mark.sweep_scaling, pytest.mark.rules(6)]

INTERVALS = 64
LIMIT = 3.0  # n log n work per interval grows ~1.4x for 8x the intervals; n**2 grows 8x
RULE = (
    "O(n log n + pairs): sort the endpoints once and pair each job, as it turns active, with "
    "the jobs active then; never compare every interval with every other."
)


def question() -> Question:
    return cost_question(
        f"overlapping_jobs on {INTERVALS}, then {8 * INTERVALS} intervals, each overlapping "
        "only the next",
        per_interval,
        INTERVALS,
        limit=LIMIT,
        unit="interval",
    )


def test_overlaps_cost_grows_with_the_pairs_not_with_every_pair_of_intervals(
    impl: Implementation,
) -> None:
    expect(impl, question(), Growth(level=True, limit=LIMIT, unit="interval"), rule=RULE)


def scaling_of(source: str) -> str:
    """The cost check's answer for a module (for the write-up): its measured growth."""
    return str(ask(question(), load_here(source)["sweep"]))
