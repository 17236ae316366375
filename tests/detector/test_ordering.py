"""Ordered by silence, longest first: the first rank to stop leads; ties by rank."""

from __future__ import annotations

import pytest
from hypothesis import given

from tests.detector.conftest import Detector
from tests.support.detecting import Call, Row, beats
from tests.support.strategies import Cascade, calls, cascades

pytestmark = pytest.mark.ordering

ORDER = "order by silence descending (the first rank to stop leads), ties by rank ascending."


def test_the_longest_silent_rank_comes_first(detector: Detector) -> None:
    """Rank 2 went quiet first, then rank 0, then rank 1."""
    call = Call(beats([(0, 5), (1, 8), (2, 2)]), 3, 0, 20, 3)
    detector.check(call, expected=[Row(2, 2, 18), Row(0, 5, 15), Row(1, 8, 12)], hint=ORDER)


def test_equal_silences_are_ordered_by_rank(detector: Detector) -> None:
    """Ties are common (ranks heard at the same tick): the order must still be defined."""
    call = Call(beats([(3, 4), (1, 4), (2, 4), (0, 9)]), 4, 0, 20, 3)
    detector.check(
        call, expected=[Row(1, 4, 16), Row(2, 4, 16), Row(3, 4, 16), Row(0, 9, 11)], hint=ORDER
    )


@given(calls())
def test_every_answer_is_sorted_by_silence_then_rank(detector: Detector, call: Call) -> None:
    """Whatever is reported comes longest silence first, ties by rank ascending."""
    answer = detector.answer(call)
    detector.holds(
        answer == sorted(answer, key=lambda row: (-row.silence, row.rank)),
        "the answer is not sorted: " + ORDER,
        (call, answer),
    )


@given(cascades())
def test_in_a_cascade_the_rank_that_died_is_reported_first(
    detector: Detector, cascade: Cascade
) -> None:
    """One rank dies; the others block in the next collective more than interval + jitter later.

    Then the dead rank's last heartbeat is the oldest, so it leads the report.  (Closer
    than that, no detector can order them from timing alone.)
    """
    answer = detector.check(cascade.call, hint=ORDER)
    detector.holds(
        bool(answer) and answer[0].rank == cascade.dead,
        f"rank {cascade.dead} died first (the others blocked {cascade.gap} ticks later, more "
        f"than interval {cascade.interval} + jitter {cascade.jitter}) but was not reported first",
        (cascade.call, answer),
    )
