"""At most max_in_flight batches out; what is ready waits for a completion, then goes at once."""

from __future__ import annotations

import pytest

from kata.impl import Implementation
from tests.support.batching import (
    NOTHING,
    Session,
    complete,
    expect_session,
    poll,
    results,
    sends,
    submit,
)

pytestmark = [pytest.mark.batch_in_flight, pytest.mark.rules(12)]

RULE = (
    "poll sends batches only while fewer than max_in_flight are sent and not completed; a "
    "batch that became ready meanwhile goes at the first poll after a completion."
)


def test_one_slot_sends_one_batch_at_a_time(impl: Implementation) -> None:
    steps = [submit("a", 0), submit("b", 0), poll(0), poll(5), complete(1, 6), poll(6)]
    want = [
        "queued",
        "queued",
        sends((["a"], 1)),
        NOTHING,
        results("a"),
        sends((["b"], 1)),
    ]
    session = Session.of(steps, max_batch_size=1, max_wait=0, max_queue=4)
    expect_session(impl, session, want, rule=RULE)


def test_two_slots_send_two_batches_in_one_poll(impl: Implementation) -> None:
    steps = [submit("a", 0), submit("b", 0), submit("c", 0), poll(0)]
    want = ["queued"] * 3 + [sends((["a"], 1), (["b"], 1))]
    session = Session.of(steps, max_batch_size=1, max_wait=0, max_queue=4, max_in_flight=2)
    expect_session(impl, session, want, rule=RULE)


def test_a_batch_that_waited_for_a_slot_goes_without_waiting_again(impl: Implementation) -> None:
    """b's wait ran out at 20 while a's batch was out; it goes at 30, when the slot frees."""
    steps = [submit("a", 0), poll(10), submit("b", 10), poll(20), complete(1, 30), poll(30)]
    want = ["queued", sends((["a"], 1)), "queued", NOTHING, results("a"), sends((["b"], 1))]
    session = Session.of(steps, max_batch_size=4, max_wait=10, max_queue=4)
    expect_session(impl, session, want, rule=RULE)
