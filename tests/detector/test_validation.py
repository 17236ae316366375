"""Bad input raises ValueError; good input at the edges is answered, never refused."""

from __future__ import annotations

import pytest

from tests.detector.conftest import Detector
from tests.support.detecting import Call, beats
from tests.support.raising import expect_value_error

pytestmark = pytest.mark.validation

BAD = {
    "a rank above the world": Call(beats([(0, 1), (4, 2)]), 4, 0, 10, 5),
    "a negative rank": Call(beats([(-1, 2)]), 4, 0, 10, 5),
    "a bad rank received after now": Call(beats([(0, 1), (9, 12)]), 4, 0, 10, 5),
    "a negative timeout": Call((), 4, 0, 10, -1),
    "a negative world_size": Call((), -1, 0, 10, 5),
    "now before start": Call((), 4, 10, 9, 5),
    "a heartbeat received before start": Call(beats([(0, 9)]), 4, 10, 20, 5),
}

GOOD_EDGES = {
    "timeout 0": Call(beats([(0, 3)]), 1, 0, 3, 0),
    "world_size 0": Call((), 0, 0, 10, 5),
    "now equal to start": Call((), 2, 7, 7, 5),
    "a heartbeat at start": Call(beats([(0, 7)]), 1, 7, 20, 5),
    "the last rank": Call(beats([(3, 7)]), 4, 0, 20, 5),
    "negative times": Call(beats([(0, -5)]), 1, -10, -1, 2),
}


@pytest.mark.parametrize("case", BAD)
def test_bad_input_raises_value_error(detector: Detector, case: str) -> None:
    """Nothing is silently dropped: a heartbeat no rank could send is an error, not noise."""
    call = BAD[case]
    expect_value_error(lambda: detector.call_raw(call), str(call), case)


@pytest.mark.parametrize("case", GOOD_EDGES)
def test_valid_edge_cases_are_answered(detector: Detector, case: str) -> None:
    """Validation must not refuse what the contract allows (the answers are checked elsewhere)."""
    detector.answer(GOOD_EDGES[case])
