"""Replaying a log as of `now`: heartbeats received after now do not count yet."""

from __future__ import annotations

import pytest
from hypothesis import given

from tests.support.detecting import Call, Detector, Row, beats
from tests.support.strategies import calls

pytestmark = [pytest.mark.replay, pytest.mark.rules(1)]

REPLAY = (
    "only heartbeats with received_at <= now count: later ones have not arrived as of now, "
    "and one received exactly at now has."
)


def test_a_heartbeat_received_after_now_does_not_count(detector: Detector) -> None:
    """The log holds the future; as of now=10 the rank was last heard at 2."""
    detector.check(Call(beats([(0, 2), (0, 11)]), 1, 0, 10, 5), [Row(0, 2, 8)], rule=REPLAY)


def test_a_heartbeat_received_exactly_at_now_counts(detector: Detector) -> None:
    """received_at == now has arrived: silence 0."""
    detector.check(Call(beats([(0, 2), (0, 10)]), 1, 0, 10, 5), [], rule=REPLAY)


def test_a_rank_heard_only_after_now_is_never_heard_as_of_now(detector: Detector) -> None:
    """Its only heartbeat is in the future: as of now it is silent since start."""
    detector.check(Call(beats([(0, 12)]), 1, 0, 10, 5), [Row(0, None, 10)], rule=REPLAY)


@given(calls())
def test_replaying_a_log_equals_cutting_it_at_now(detector: Detector, call: Call) -> None:
    """detect(log, now) is detect(the part of log received by now, now)."""
    cut = tuple(b for b in call.heartbeats if b.received_at <= call.now)
    truncated = Call(cut, *call.window())
    detector.holds(
        [call, truncated],
        lambda whole, part: whole == part,
        claim="heartbeats received after now changed the answer",
        rule=REPLAY,
    )
