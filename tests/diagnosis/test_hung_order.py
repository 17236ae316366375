"""Hung ranks lowest progress first: in a stuck collective, the one the others wait for."""

from __future__ import annotations

import pytest

from kata.checks import expect
from kata.impl import Implementation
from tests.support.diagnosing import Beat, Case, HungRow, diagnose_question

pytestmark = [pytest.mark.hung_order, pytest.mark.rules(4)]

RULE = (
    "hung ranks are ordered by progress ascending (the lowest is the one the others wait "
    "for), then by the longest stall, then by rank."
)


def test_the_rank_behind_comes_first_though_it_stalled_last(impl: Implementation) -> None:
    """Ranks 0 and 1 entered collective 42 at tick 10 and wait there; rank 2 is stuck at 41
    since tick 30.  Rank 2 is the one to look at, first, though its stall is the shortest."""
    beats = [Beat(r, t, t, 42) for r in (0, 1) for t in (10, 50, 90)]
    beats += [Beat(2, 0, 0, 40)] + [Beat(2, t, t, 41) for t in (30, 60, 90)]
    case = Case(tuple(beats), world_size=3, start=0, now=100, timeout=50, stall_timeout=20)
    want = ((), (HungRow(2, 41, 30, 70), HungRow(0, 42, 10, 90), HungRow(1, 42, 10, 90)))
    expect(impl, diagnose_question(case), want, rule=RULE)


def test_equal_progress_longest_stall_first_then_rank(impl: Implementation) -> None:
    beats = [Beat(3, 0, 20, 7), Beat(3, 0, 90, 7), Beat(1, 0, 5, 7), Beat(1, 0, 95, 7)]
    beats += [Beat(0, 0, 20, 7), Beat(0, 0, 90, 7), Beat(2, 0, 95, 9)]  # rank 2 advances
    case = Case(tuple(beats), world_size=4, start=0, now=100, timeout=50, stall_timeout=20)
    want = ((), (HungRow(1, 7, 5, 95), HungRow(0, 7, 20, 80), HungRow(3, 7, 20, 80)))
    expect(impl, diagnose_question(case), want, rule=RULE)
