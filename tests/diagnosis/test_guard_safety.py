"""The guard never hides a single death, nor a death at another time than the mass silence."""

from __future__ import annotations

from fractions import Fraction

import pytest

from kata.checks import expect
from kata.impl import Implementation
from tests.support.detecting import Row
from tests.support.diagnosing import Report, guard_question

pytestmark = pytest.mark.guard_safety

RULE = (
    "the fault needs more than fraction * world_size ranks and at least two, all silent "
    "since within one window; every other rank of the report stays reported."
)


@pytest.mark.rules(9)
def test_one_silent_rank_is_always_reported(impl: Implementation) -> None:
    """World of 2, fraction 1/4: one rank is more than half a rank, but a death is one rank."""
    report = Report((Row(1, 40, 60),), 2, 0, 1_000, Fraction(1, 4))
    expect(impl, guard_question(report), (report.stopped, None), rule=RULE)


@pytest.mark.rules(8, 9)
def test_a_death_before_the_stall_is_still_reported(impl: Implementation) -> None:
    """Rank 7 died at 1,000; the collector stalled at 9,000 and all others look silent:
    the fault holds the others, rank 7 stays reported."""
    stall = tuple(Row(r, 9_000 + r, 1_000 - r) for r in range(7))
    died = Row(7, 1_000, 9_000)
    report = Report((died, *stall), 8, 0, 500, Fraction(1, 2))
    want = ((died,), (tuple(range(7)), (9_000, 9_006)))
    expect(impl, guard_question(report), want, rule=RULE)


@pytest.mark.rules(9)
def test_no_fault_reports_every_rank_in_order(impl: Implementation) -> None:
    stopped = (Row(3, 10, 90), Row(1, 50, 50))
    report = Report(stopped, 4, 0, 5, Fraction(1, 4))
    expect(impl, guard_question(report), (stopped, None), rule=RULE)
