"""close(): no new requests; what is queued goes without waiting; nothing accepted is lost."""

from __future__ import annotations

import pytest

from kata.impl import Implementation
from tests.support.batching import (
    NOTHING,
    Session,
    close,
    complete,
    expect_session,
    poll,
    results,
    sends,
    submit,
)

pytestmark = pytest.mark.batch_shutdown

RULE = (
    "after close(), submit raises Closed; poll sends every queued request without waiting for "
    "batches to fill or max_wait, still at most max_batch_size a batch and max_in_flight "
    "batches out; what is in flight completes as usual."
)


@pytest.mark.rules(4)
def test_a_closed_batcher_refuses_new_requests(impl: Implementation) -> None:
    steps = [submit("a", 0), close(), submit("b", 1)]
    want = ["queued", "closed", "Closed"]
    session = Session.of(steps, max_batch_size=4, max_wait=100, max_queue=4)
    expect_session(impl, session, want, rule=RULE)


@pytest.mark.rules(16)
def test_closing_sends_the_queue_without_waiting(impl: Implementation) -> None:
    """max_wait 100, size 2: after close, a and b go at once, then c alone."""
    steps = [submit("a", 0), submit("b", 0), submit("c", 0), poll(1), close(), poll(1)]
    want = ["queued"] * 3 + [sends((["a", "b"], 2)), "closed", NOTHING]
    session = Session.of(steps, max_batch_size=2, max_wait=100, max_queue=4)
    steps_after = [complete(1, 2), poll(2)]
    want_after = [results("a", "b"), sends((["c"], 1))]
    expect_session(impl, session.then(*steps_after), [*want, *want_after], rule=RULE)


@pytest.mark.rules(16)
def test_closing_sends_a_partial_batch_at_once(impl: Implementation) -> None:
    steps = [submit("a", 0), poll(1), close(), poll(1)]
    want = ["queued", NOTHING, "closed", sends((["a"], 1))]
    session = Session.of(steps, max_batch_size=4, max_wait=100, max_queue=4)
    expect_session(impl, session, want, rule=RULE)


@pytest.mark.rules(16, 17)
def test_nothing_accepted_is_lost(impl: Implementation) -> None:
    """Close with two batches' worth queued and one in flight: every request gets a result."""
    steps = [
        submit("a", 0),
        submit("b", 0),
        poll(0),
        submit("c", 1),
        submit("d", 1),
        submit("e", 1),
        close(),
        poll(2),
        complete(1, 3),
        poll(3),
        complete(2, 4),
        poll(4),
        complete(3, 5),
        poll(5),
    ]
    want = [
        "queued",
        "queued",
        sends((["a", "b"], 2)),
        "queued",
        "queued",
        "queued",
        "closed",
        NOTHING,
        results("a", "b"),
        sends((["c", "d"], 2)),
        results("c", "d"),
        sends((["e"], 1)),
        results("e"),
        NOTHING,
    ]
    session = Session.of(steps, max_batch_size=2, max_wait=50, max_queue=8)
    expect_session(impl, session, want, rule=RULE)


@pytest.mark.rules(4)
def test_a_closed_batcher_says_closed_even_when_its_queue_is_full(impl: Implementation) -> None:
    """A full queue after close(): the refusal is Closed, not QueueFull, which would tell the
    caller to try again later."""
    steps = [submit("a", 0), close(), submit("b", 1)]
    want = ["queued", "closed", "Closed"]
    session = Session.of(steps, max_batch_size=4, max_wait=100, max_queue=1)
    expect_session(impl, session, want, rule=RULE)


@pytest.mark.rules(4)
def test_a_closed_batcher_says_closed_even_to_a_request_it_would_refuse(
    impl: Implementation,
) -> None:
    """After close(), a duplicate id and a zero-token request are refused as Closed first:
    the caller must learn that no request will be taken, not that this one is wrong."""
    steps = [submit("a", 0), close(), submit("a", 1), submit("b", 1, tokens=0)]
    want = ["queued", "closed", "Closed", "Closed"]
    session = Session.of(steps, max_batch_size=4, max_wait=100, max_queue=4)
    expect_session(impl, session, want, rule=RULE)
