"""last_heard is the greatest received_at, whatever order the log lists heartbeats in."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tests.detector.conftest import Detector
from tests.support.detecting import Beat, Call, Row, beats
from tests.support.strategies import calls

pytestmark = pytest.mark.input_order

LATEST = "last_heard is the greatest received_at, not the last heartbeat in input order."


def test_the_latest_heartbeat_counts_not_the_last_listed(detector: Detector) -> None:
    """Logs merged from several collectors are out of order; 9 is later than 3."""
    call = Call(beats([(0, 9), (1, 4), (0, 3)]), 2, 0, 12, 5)
    detector.check(call, expected=[Row(1, 4, 8)], hint=LATEST)


@given(calls().flatmap(lambda call: st.tuples(st.just(call), st.permutations(call.heartbeats))))
def test_any_permutation_of_the_log_gives_the_same_answer(
    detector: Detector, call_and_order: tuple[Call, list[Beat]]
) -> None:
    """The answer depends on the set of heartbeats, not on their order."""
    call, order = call_and_order
    permuted = Call(tuple(order), call.world_size, call.start, call.now, call.timeout)
    answer, permuted_answer = detector.answer(call), detector.answer(permuted)
    detector.holds(
        answer == permuted_answer,
        "reordering the log changed the answer: " + LATEST,
        (call, answer),
        (permuted, permuted_answer),
    )
