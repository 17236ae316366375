"""Replaying a log as of `now`: heartbeats received after now do not count yet."""

from __future__ import annotations

import pytest
from hypothesis import given

from tests.detector.conftest import Detector
from tests.support.detecting import Call, Row, beats
from tests.support.strategies import calls

pytestmark = pytest.mark.replay

REPLAY = "count heartbeats with received_at <= now; ignore the later ones."


def test_a_heartbeat_received_after_now_does_not_count(detector: Detector) -> None:
    """The log holds the future; as of now=10 the rank was last heard at 2."""
    call = Call(beats([(0, 2), (0, 11)]), 1, 0, 10, 5)
    detector.check(call, expected=[Row(0, 2, 8)], hint=REPLAY)


def test_a_heartbeat_received_exactly_at_now_counts(detector: Detector) -> None:
    """received_at == now has arrived: silence 0."""
    detector.check(Call(beats([(0, 2), (0, 10)]), 1, 0, 10, 5), expected=[], hint=REPLAY)


@given(calls())
def test_replaying_a_log_equals_cutting_it_at_now(detector: Detector, call: Call) -> None:
    """detect(log, now) is detect(the part of log received by now, now)."""
    cut = tuple(b for b in call.heartbeats if b.received_at <= call.now)
    truncated = Call(cut, call.world_size, call.start, call.now, call.timeout)
    answer, truncated_answer = detector.answer(call), detector.answer(truncated)
    detector.holds(
        answer == truncated_answer,
        "heartbeats received after now changed the answer: " + REPLAY,
        (call, answer),
        (truncated, truncated_answer),
    )
