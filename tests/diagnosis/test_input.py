"""The input of diagnose and of the guard: any iterable, read once, never modified."""

from __future__ import annotations

from fractions import Fraction

import pytest

from kata.checks import expect
from kata.impl import Implementation
from tests.support.detecting import Row
from tests.support.diagnosing import (
    Beat,
    Case,
    HungRow,
    Report,
    diagnose_question,
    guard_question,
)

pytestmark = [pytest.mark.diagnosis_input, pytest.mark.rules(5)]

RULE = (
    "the heartbeats (and the guard's report) are any iterable, read once, never modified: "
    "the same answer from a list, an iterator or a generator, and the caller's list keeps "
    "its order."
)
# Out of receipt order on purpose: a module that sorts the caller's list in place shows it.
BEATS = (Beat(1, 95, 95, 9), Beat(0, 10, 10, 1), Beat(1, 40, 40, 9), Beat(0, 100, 100, 10))
CASE = Case(BEATS, world_size=3, start=0, now=100, timeout=30, stall_timeout=50)
DIAGNOSIS = ((Row(2, None, 100),), (HungRow(1, 9, 40, 60),))
REPORT = Report((Row(2, 5, 95), Row(0, 90, 10), Row(1, 4, 96)), 3, 0, 2, Fraction(1, 2))
GUARDED = ((Row(0, 90, 10),), ((1, 2), (4, 5)))


@pytest.mark.parametrize("form", ["list", "iterator", "generator"])
def test_diagnose_reads_any_iterable_once(impl: Implementation, form: str) -> None:
    expect(impl, diagnose_question(CASE, form=form), DIAGNOSIS, rule=RULE)


def test_diagnose_never_changes_the_callers_list(impl: Implementation) -> None:
    expect(impl, diagnose_question(CASE, keeps_input=True), DIAGNOSIS, rule=RULE)


@pytest.mark.parametrize("form", ["list", "iterator", "generator"])
def test_the_guard_reads_any_iterable_once(impl: Implementation, form: str) -> None:
    expect(impl, guard_question(REPORT, form=form), GUARDED, rule=RULE)


def test_the_guard_never_changes_the_callers_list(impl: Implementation) -> None:
    expect(impl, guard_question(REPORT, keeps_input=True), GUARDED, rule=RULE)
