"""Ordered by silence, longest first: the first rank to stop leads; ties by rank."""

from __future__ import annotations

import pytest
from hypothesis import given

from tests.support.detecting import Call, Detector, Row, beats
from tests.support.strategies import Cascade, calls, cascades

pytestmark = [pytest.mark.ordering, pytest.mark.rules(6)]

ORDER = "order by silence descending (the first rank to stop leads), ties by rank ascending."


def test_the_longest_silent_rank_comes_first(detector: Detector) -> None:
    """Rank 2 went quiet first, then rank 0, then rank 1."""
    call = Call(beats([(0, 5), (1, 8), (2, 2)]), 3, 0, 20, 3)
    detector.check(call, [Row(2, 2, 18), Row(0, 5, 15), Row(1, 8, 12)], rule=ORDER)


def test_equal_silences_are_ordered_by_rank(detector: Detector) -> None:
    """Ties are common (ranks heard at the same tick): the order must still be defined."""
    call = Call(beats([(3, 4), (1, 4), (2, 4), (0, 9)]), 4, 0, 20, 3)
    detector.check(call, [Row(1, 4, 16), Row(2, 4, 16), Row(3, 4, 16), Row(0, 9, 11)], rule=ORDER)


def test_in_a_small_cascade_the_dead_rank_leads(detector: Detector) -> None:
    """Rank 2 dies after its beat at 21; ranks 0, 1, 3 block in the next collective at ~35."""
    schedule = [(r, t + r) for t in range(0, 40, 10) for r in range(4) if not (r == 2 and t > 20)]
    heartbeats = beats((r, t) for r, t in schedule if t < 35 + r)
    call = Call(heartbeats, 4, 0, 60, 15)
    detector.check(
        call, [Row(2, 22, 38), Row(0, 30, 30), Row(1, 31, 29), Row(3, 33, 27)], rule=ORDER
    )


@given(calls())
def test_every_answer_is_sorted_by_silence_then_rank(detector: Detector, call: Call) -> None:
    """Whatever is reported comes longest silence first, ties by rank ascending."""
    detector.holds(
        [call],
        lambda answer: list(answer) == sorted(answer, key=lambda row: (-row.silence, row.rank)),
        claim="the answer is not sorted by silence descending, then rank",
        rule=ORDER,
    )


@given(cascades())
def test_in_a_cascade_the_rank_that_died_is_reported_first(
    detector: Detector, cascade: Cascade
) -> None:
    """One rank dies; the others block in the next collective more than interval + jitter later.

    Then the dead rank's last heartbeat is the oldest, so it leads the report.  (Closer
    than that, no detector can order them from timing alone.)
    """
    detector.check(cascade.call, rule=ORDER)
    detector.holds(
        [cascade.call],
        lambda answer: bool(answer) and answer[0].rank == cascade.dead,
        claim=f"rank {cascade.dead} died first (the others blocked {cascade.gap} ticks later, "
        f"more than interval {cascade.interval} + jitter {cascade.jitter}) but was not first",
        rule=ORDER,
    )
