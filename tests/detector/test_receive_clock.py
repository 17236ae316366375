"""The collector's receive clock decides; the sender's timestamp never does."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tests.detector.conftest import Detector
from tests.support.detecting import Beat, Call, Row
from tests.support.strategies import HOUR_NS, calls, sender_clock_rewrites

pytestmark = pytest.mark.receive_clock

SENDER = "sent_at is the sender's clock, skewed and free to jump: never read it."


def test_a_clock_hours_behind_neither_reports_a_healthy_rank_nor_hides_a_dead_one(
    detector: Detector,
) -> None:
    """Rank 0 is healthy with a clock 3 h behind; rank 1 died, its clock 2 h ahead."""
    now, timeout = 10 * HOUR_NS, 5 * 10**9
    heartbeats = (
        Beat(0, now - 3 * HOUR_NS - 10**9, now - 10**9),  # heard a second ago
        Beat(1, now + 2 * HOUR_NS - 60 * 10**9, now - 60 * 10**9),  # silent for a minute
    )
    detector.check(
        Call(heartbeats, 2, 0, now, timeout),
        expected=[Row(1, now - 60 * 10**9, 60 * 10**9)],
        hint=SENDER,
    )


@given(calls(), sender_clock_rewrites(), st.data())
def test_rewriting_every_sent_at_changes_nothing(
    detector: Detector, call: Call, rewrite: tuple[int, int, int], data: st.DataObject
) -> None:
    """Offsets of hours, drift and jumps backwards in sent_at leave the answer as it was."""
    offset, drift, jump = rewrite
    jumped = data.draw(st.sets(st.integers(0, max(0, len(call.heartbeats) - 1))), label="jumped")
    skewed = tuple(
        b._replace(sent_at=b.sent_at + offset + drift * b.sent_at + (jump if i in jumped else 0))
        for i, b in enumerate(call.heartbeats)
    )
    rewritten = Call(skewed, call.world_size, call.start, call.now, call.timeout)
    original_answer, rewritten_answer = detector.answer(call), detector.answer(rewritten)
    detector.holds(
        original_answer == rewritten_answer,
        "changing only sent_at changed the answer: " + SENDER,
        (call, original_answer),
        (rewritten, rewritten_answer),
    )


@given(calls(), st.integers(-(10**15), 10**15))
def test_shifting_every_collector_time_changes_only_last_heard(
    detector: Detector, call: Call, shift: int
) -> None:
    """Only differences of the collector's times matter: when the clock started is arbitrary."""
    moved = tuple(b._replace(received_at=b.received_at + shift) for b in call.heartbeats)
    shifted = Call(moved, call.world_size, call.start + shift, call.now + shift, call.timeout)
    answer, shifted_answer = detector.answer(call), detector.answer(shifted)
    expected = [
        r._replace(last_heard=None if r.last_heard is None else r.last_heard + shift)
        for r in answer
    ]
    detector.holds(
        [tuple(r) for r in shifted_answer] == [tuple(r) for r in expected],
        f"shifting received_at, start and now by {shift} must shift last_heard by it and "
        "change nothing else",
        (call, answer),
        (shifted, shifted_answer),
    )
