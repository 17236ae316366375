"""The collector's receive clock decides; the sender's timestamp never does."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tests.support.detecting import Beat, Call, Detector, Row
from tests.support.strategies import HOUR_NS, calls, sender_clock_rewrites

pytestmark = [pytest.mark.receive_clock, pytest.mark.rules(3)]

SENDER = (
    "silence is measured on the collector's clock, from received_at; sent_at is another "
    "host's clock, skewed and free to jump: never read it."
)


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
        Call(heartbeats, 2, 0, now, timeout), [Row(1, now - 60 * 10**9, 60 * 10**9)], rule=SENDER
    )


def test_the_latest_received_counts_even_if_its_sent_at_is_earlier(detector: Detector) -> None:
    """A sender's clock stepped back between two heartbeats: the later arrival is the latest."""
    heartbeats = (Beat(0, 900, 4), Beat(0, 100, 9), Beat(1, 50, 2))
    detector.check(Call(heartbeats, 2, 0, 16, 5), [Row(1, 2, 14), Row(0, 9, 7)], rule=SENDER)


def test_a_sender_clock_far_ahead_does_not_hide_a_silent_rank(detector: Detector) -> None:
    """sent_at later than now by the sender's clock: the collector has not heard it for 20."""
    detector.check(Call((Beat(0, 10**12, 5),), 1, 0, 25, 10), [Row(0, 5, 20)], rule=SENDER)


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
    rewritten = Call(skewed, *call.window())
    detector.holds(
        [call, rewritten],
        lambda original, changed: original == changed,
        claim="changing only sent_at changed the answer",
        rule=SENDER,
    )


@given(calls(), st.integers(-(10**15), 10**15))
def test_shifting_every_collector_time_changes_only_last_heard(
    detector: Detector, call: Call, shift: int
) -> None:
    """Only differences of the collector's times matter: when the clock started is arbitrary."""
    moved = tuple(b._replace(received_at=b.received_at + shift) for b in call.heartbeats)
    shifted = Call(moved, call.world_size, call.start + shift, call.now + shift, call.timeout)

    def shifted_by(answer: tuple[Row, ...], later: tuple[Row, ...]) -> bool:
        expected = [
            r._replace(last_heard=None if r.last_heard is None else r.last_heard + shift)
            for r in answer
        ]
        return list(later) == expected

    detector.holds(
        [call, shifted],
        shifted_by,
        claim=f"shifting received_at, start and now by {shift} must shift last_heard by it and "
        "change nothing else",
        rule=SENDER,
    )
