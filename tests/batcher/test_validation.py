"""Impossible configurations and calls raise ValueError, naming the problem."""

from __future__ import annotations

from typing import Any

import pytest

from kata.checks import expect_value_error
from kata.impl import Implementation
from tests.support.batching import (
    Session,
    cancel,
    complete,
    construction,
    expect_session,
    poll,
    results,
    sends,
    submit,
)

pytestmark = pytest.mark.batch_validation

RULE = (
    "submit raises ValueError for tokens < 1, a negative timeout, or an id already queued or "
    "in flight; any call whose now is earlier than a now already passed raises ValueError."
)
GOOD = {"max_batch_size": 4, "max_wait": 10, "max_queue": 8}


@pytest.mark.rules(2)
@pytest.mark.parametrize(
    ("change", "problem"),
    [
        ({"max_batch_size": 0}, "a batch of at most 0 requests"),
        ({"max_wait": -1}, "a negative wait"),
        ({"max_queue": 0}, "a queue that holds nothing"),
        ({"max_in_flight": 0}, "no batch ever in flight"),
        ({"token_budget": 0}, "a budget no request fits"),
        ({"ageing": -1}, "a negative ageing"),
        ({"buckets": (8, 4)}, "boundaries out of order"),
        ({"buckets": (4, 4)}, "a boundary twice"),
        ({"buckets": (0, 4)}, "a boundary below 1 token"),
    ],
)
def test_an_impossible_configuration_is_refused(
    impl: Implementation, change: dict[str, Any], problem: str
) -> None:
    expect_value_error(impl, construction(GOOD | change), problem)


@pytest.mark.rules(5)
@pytest.mark.parametrize(
    ("request_step", "problem"),
    [
        (submit("a", 0, tokens=0), "no tokens"),
        (submit("a", 0, tokens=-3), "negative tokens"),
        (submit("a", 0, timeout=-1), "a negative timeout"),
    ],
)
def test_an_impossible_request_is_refused(
    impl: Implementation, request_step: tuple[Any, ...], problem: str
) -> None:
    """Refused, not queued: the queue stays empty."""
    session = Session.of([request_step, poll(100)], **GOOD)
    expect_session(impl, session, ["ValueError", sends()], rule=f"{RULE} ({problem})")


@pytest.mark.rules(5)
def test_an_id_already_queued_is_refused(impl: Implementation) -> None:
    """Two requests with one id: their callers could not tell their results apart."""
    steps = [submit("a", 0), submit("a", 1), poll(10)]
    want = ["queued", "ValueError", sends((["a"], 1))]
    expect_session(impl, Session.of(steps, **GOOD), want, rule=RULE)


@pytest.mark.rules(5)
def test_an_id_in_flight_is_refused(impl: Implementation) -> None:
    steps = [submit("a", 0), poll(10), submit("a", 11), complete(1, 12)]
    want = ["queued", sends((["a"], 1)), "ValueError", (("a", "result", "out:a"),)]
    expect_session(impl, Session.of(steps, **GOOD), want, rule=RULE)


@pytest.mark.rules(1)
@pytest.mark.parametrize(
    "late_step",
    [submit("b", 4), poll(4), cancel("a", 4)],
    ids=["submit", "poll", "cancel"],
)
def test_time_never_goes_back(impl: Implementation, late_step: tuple[Any, ...]) -> None:
    """A call at 4 after a call at 5 is the caller's bug: refused, whatever the call."""
    steps = [submit("a", 0), poll(5), late_step]
    want = ["queued", sends(), "ValueError"]
    expect_session(impl, Session.of(steps, **GOOD), want, rule=RULE)


@pytest.mark.rules(1, 13)
def test_a_completion_at_an_earlier_time_is_refused_and_the_batch_stays_in_flight(
    impl: Implementation,
) -> None:
    """Batch 1 sent at 10: complete(1, now=4) is refused, and completing it at 11 still works."""
    steps = [submit("a", 0), poll(10), complete(1, 4), complete(1, 11)]
    want = ["queued", sends((["a"], 1)), "ValueError", results("a")]
    expect_session(impl, Session.of(steps, **GOOD), want, rule=RULE)


@pytest.mark.rules(1)
def test_time_may_stand_still(impl: Implementation) -> None:
    steps = [submit("a", 5), poll(5), submit("b", 5), poll(5)]
    want = ["queued", sends(), "queued", sends()]
    expect_session(impl, Session.of(steps, **GOOD), want, rule=RULE)
