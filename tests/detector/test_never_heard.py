"""A rank never heard is silent since start: it may have died before its first heartbeat."""

from __future__ import annotations

import pytest

from tests.support.detecting import Call, Detector, Row, beats

pytestmark = [pytest.mark.never_heard, pytest.mark.rules(4)]

NEVER = (
    "a rank with no heartbeat received by now is silent since start (last_heard None, "
    "silence now - start): not healthy, and not silent since 0."
)


def test_a_rank_never_heard_is_reported_once_start_is_timeout_past(detector: Detector) -> None:
    """Silence runs from start (not 0): last_heard None, silence now - start."""
    call = Call(beats([(0, 1_002)]), 2, 1_000, 1_006, 5)
    detector.check(call, [Row(1, None, 6)], rule=NEVER)


def test_a_rank_never_heard_is_not_reported_within_the_timeout(detector: Detector) -> None:
    """Before start + timeout, a silent newcomer is still within its grace period."""
    detector.check(Call(beats([(0, 1_004)]), 2, 1_000, 1_005, 5), [], rule=NEVER)


def test_an_empty_log_reports_every_rank_in_rank_order(detector: Detector) -> None:
    """Nobody heard: every rank is equally silent, so the tie-break orders them."""
    expected = [Row(rank, None, 7) for rank in range(4)]
    detector.check(Call((), 4, 10, 17, 6), expected, rule=NEVER)


def test_a_rank_never_heard_comes_before_ranks_heard_since(detector: Detector) -> None:
    """Silent since start is the longest silence of all: it leads the report."""
    call = Call(beats([(2, 101), (0, 103)]), 3, 100, 120, 5)
    detector.check(call, [Row(1, None, 20), Row(2, 101, 19), Row(0, 103, 17)], rule=NEVER)


def test_a_job_of_no_ranks_has_nobody_to_report(detector: Detector) -> None:
    """world_size 0 is a valid, empty question."""
    detector.check(Call((), 0, 0, 100, 5), [], rule=NEVER)
