"""Bad input raises ValueError on every path; good input at the edges is answered, never refused."""

from __future__ import annotations

import pytest

from kata.checks import expect_value_error
from tests.support.detecting import Call, Detector, beats, detect_question

pytestmark = pytest.mark.validation

BAD = {
    "a rank above the world": Call(beats([(0, 1), (4, 2)]), 4, 0, 10, 5),
    "a negative rank": Call(beats([(-1, 2)]), 4, 0, 10, 5),
    "a bad rank received after now": Call(beats([(0, 1), (9, 12)]), 4, 0, 10, 5),
    "a bad rank while nobody can be silent yet": Call(beats([(7, 1)]), 4, 0, 2, 5),
    "a heartbeat in a world of no ranks": Call(beats([(0, 1)]), 0, 0, 10, 5),
    "a bad rank as the last of many heartbeats": Call(
        beats([(0, 1), (1, 2), (2, 3), (3, 4), (4, 5)]), 4, 0, 10, 5
    ),
    "a negative timeout": Call((), 4, 0, 10, -1),
    "a negative timeout with heartbeats": Call(beats([(0, 3)]), 1, 0, 10, -1),
    "a negative world_size": Call((), -1, 0, 10, 5),
    "now before start": Call((), 4, 10, 9, 5),
    "now before start in a world of no ranks": Call((), 0, 10, 9, 5),
    "a heartbeat received before start": Call(beats([(0, 9)]), 4, 10, 20, 5),
    "a heartbeat received before start while nobody can be silent yet": Call(
        beats([(0, 5)]), 2, 10, 12, 5
    ),
}

GOOD_EDGES = {
    "timeout 0": Call(beats([(0, 3)]), 1, 0, 3, 0),
    "world_size 0": Call((), 0, 0, 10, 5),
    "now equal to start": Call((), 2, 7, 7, 5),
    "a heartbeat at start": Call(beats([(0, 7)]), 1, 7, 20, 5),
    "the last rank": Call(beats([(3, 7)]), 4, 0, 20, 5),
    "negative times": Call(beats([(0, -5)]), 1, -10, -1, 2),
    "a heartbeat received after now from a good rank": Call(beats([(0, 30)]), 1, 0, 20, 5),
}


@pytest.mark.rules(7)
@pytest.mark.parametrize("case", BAD)
def test_bad_input_raises_value_error(detector: Detector, case: str) -> None:
    """Nothing is silently dropped: a heartbeat no rank could send is an error, not noise."""
    detector.refuses(BAD[case], case)


@pytest.mark.rules(7, 8)
@pytest.mark.parametrize("form", ["iterator", "generator"])
def test_a_bad_heartbeat_late_in_a_stream_is_refused(detector: Detector, form: str) -> None:
    """Streamed input is validated as it is read, to its last heartbeat."""
    call = Call(beats([(0, 1), (1, 2), (0, 3), (7, 4)]), 2, 0, 10, 5)
    expect_value_error(detector.impl, detect_question(call, form=form), "a rank above the world")


@pytest.mark.rules(7)
@pytest.mark.parametrize("case", GOOD_EDGES)
def test_valid_edge_cases_are_answered(detector: Detector, case: str) -> None:
    """Validation must not refuse what the contract allows (other tests check the answers)."""
    detector.answer(GOOD_EDGES[case])
