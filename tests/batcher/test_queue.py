"""A bounded queue: a request past max_queue is refused at once, never queued, never dropped."""

from __future__ import annotations

import pytest

from kata.impl import Implementation
from tests.support.batching import NOTHING, Session, expect_session, poll, sends, submit

pytestmark = [pytest.mark.batch_queue, pytest.mark.rules(3)]

RULE = (
    "submit raises QueueFull at once when max_queue requests are queued (backpressure): the "
    "request is not queued, and nothing already queued is dropped to make room; requests in "
    "flight do not count against max_queue."
)


def test_a_full_queue_refuses_the_next_request(impl: Implementation) -> None:
    """max_queue 2: a and b are queued; c is refused; a and b are the ones sent."""
    steps = [submit("a", 0), submit("b", 0), submit("c", 1), poll(1), poll(10)]
    want = ["queued", "queued", "QueueFull", NOTHING, sends((["a", "b"], 2))]
    session = Session.of(steps, max_batch_size=8, max_wait=10, max_queue=2)
    expect_session(impl, session, want, rule=RULE)


def test_room_comes_back_when_a_batch_is_sent(impl: Implementation) -> None:
    """Once a and b are sent they are in flight, not queued: c and d fit."""
    steps = [
        submit("a", 0),
        submit("b", 0),
        poll(0),
        submit("c", 1),
        submit("d", 1),
        submit("e", 1),
    ]
    want = ["queued", "queued", sends((["a", "b"], 2)), "queued", "queued", "QueueFull"]
    session = Session.of(steps, max_batch_size=2, max_wait=10, max_queue=2)
    expect_session(impl, session, want, rule=RULE)


def test_a_refused_request_may_be_submitted_again(impl: Implementation) -> None:
    """c was refused, so it is unknown: once there is room, submitting it again queues it."""
    steps = [submit("a", 0), submit("c", 0), poll(0), submit("c", 1), poll(1)]
    want = ["queued", "QueueFull", sends((["a"], 1)), "queued", NOTHING]
    session = Session.of(steps, max_batch_size=1, max_wait=0, max_queue=1, max_in_flight=1)
    expect_session(impl, session, want, rule=RULE)
