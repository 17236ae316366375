"""Cancelled or timed out while queued: never sent.  Cancelled in flight: its result discarded."""

from __future__ import annotations

import pytest

from kata.impl import Implementation
from tests.support.batching import (
    NOTHING,
    Session,
    cancel,
    cancelled,
    complete,
    expect_session,
    failed,
    poll,
    result,
    sends,
    submit,
)

pytestmark = pytest.mark.batch_cancel

RULE = (
    "cancel of a queued request returns its 'cancelled' Ending and it is never sent; of a "
    "request in flight it returns None and at completion that request ends 'cancelled', its "
    "result discarded, the rest of the batch undisturbed; poll first ends every request queued "
    "longer than its timeout (now - arrival > timeout: 'timed out', never sent)."
)


@pytest.mark.rules(14)
def test_a_request_cancelled_while_queued_is_never_sent(impl: Implementation) -> None:
    steps = [submit("a", 0), submit("b", 0), cancel("a", 1), poll(5)]
    want = ["queued", "queued", "cancelled now", sends((["b"], 1))]
    session = Session.of(steps, max_batch_size=4, max_wait=5, max_queue=4)
    expect_session(impl, session, want, rule=RULE)


@pytest.mark.rules(14)
def test_a_request_cancelled_in_flight_ends_cancelled_alone(impl: Implementation) -> None:
    """b is cancelled while its batch runs: b ends cancelled; a and c get their results."""
    steps = [
        submit("a", 0),
        submit("b", 0),
        submit("c", 0),
        poll(0),
        cancel("b", 1),
        complete(1, 2),
    ]
    want = [
        "queued",
        "queued",
        "queued",
        sends((["a", "b", "c"], 3)),
        "cancelled at completion",
        (result("a"), cancelled("b"), result("c")),
    ]
    session = Session.of(steps, max_batch_size=3, max_wait=0, max_queue=4)
    expect_session(impl, session, want, rule=RULE)


@pytest.mark.rules(14)
def test_a_cancelled_request_cannot_be_cancelled_again(impl: Implementation) -> None:
    """Once ended it is unknown: cancelling it again, or an id never seen, is a ValueError."""
    steps = [submit("a", 0), cancel("a", 0), cancel("a", 0), cancel("nobody", 0)]
    want = ["queued", "cancelled now", "ValueError", "ValueError"]
    session = Session.of(steps, max_batch_size=4, max_wait=5, max_queue=4)
    expect_session(impl, session, want, rule=RULE)


@pytest.mark.rules(10)
def test_a_request_queued_longer_than_its_timeout_times_out(impl: Implementation) -> None:
    """Timeout 5: queued 5 ticks it is still waiting; 6, it times out, never sent."""
    steps = [submit("a", 0, timeout=5), poll(5), poll(6), poll(100)]
    want = ["queued", NOTHING, sends(timed_out=["a"]), NOTHING]
    session = Session.of(steps, max_batch_size=4, max_wait=50, max_queue=4)
    expect_session(impl, session, want, rule=RULE)


@pytest.mark.rules(10)
def test_timing_out_comes_before_sending(impl: Implementation) -> None:
    """At 10 a's batch is due and a has outlived its timeout of 3: a times out; b goes alone."""
    steps = [submit("a", 0, timeout=3), submit("b", 0), poll(10)]
    want = ["queued", "queued", sends((["b"], 1), timed_out=["a"])]
    session = Session.of(steps, max_batch_size=4, max_wait=10, max_queue=4)
    expect_session(impl, session, want, rule=RULE)


@pytest.mark.rules(10, 11)
def test_a_timeout_equal_to_max_wait_never_bites_a_free_slot(impl: Implementation) -> None:
    """Timeout 10, max_wait 10: at 10 the request has waited max_wait and not outlived 10."""
    steps = [submit("a", 0, timeout=10), poll(10)]
    want = ["queued", sends((["a"], 1))]
    session = Session.of(steps, max_batch_size=4, max_wait=10, max_queue=4)
    expect_session(impl, session, want, rule=RULE)


@pytest.mark.rules(10)
def test_a_timeout_no_longer_applies_once_sent(impl: Implementation) -> None:
    """Sent at 0 with a timeout of 1, completed at 50: a result, not a timeout."""
    steps = [submit("a", 0, timeout=1), poll(0), poll(50), complete(1, 50)]
    want = ["queued", sends((["a"], 1)), NOTHING, (result("a"),)]
    session = Session.of(steps, max_batch_size=4, max_wait=0, max_queue=4)
    expect_session(impl, session, want, rule=RULE)


@pytest.mark.rules(3, 10)
def test_a_timed_out_request_frees_its_place(impl: Implementation) -> None:
    """max_queue 1: once a has timed out, b fits."""
    steps = [submit("a", 0, timeout=0), submit("b", 0), poll(1), submit("b", 1)]
    want = ["queued", "QueueFull", sends(timed_out=["a"]), "queued"]
    session = Session.of(steps, max_batch_size=4, max_wait=10, max_queue=1)
    expect_session(impl, session, want, rule=RULE)


@pytest.mark.rules(5, 10)
def test_the_id_of_a_timed_out_request_is_free_again(impl: Implementation) -> None:
    """a times out at 1; a new request with id a is accepted at 2."""
    steps = [submit("a", 0, timeout=0), poll(1), submit("a", 2)]
    want = ["queued", sends(timed_out=["a"]), "queued"]
    session = Session.of(steps, max_batch_size=4, max_wait=10, max_queue=4)
    expect_session(impl, session, want, rule=RULE)


@pytest.mark.rules(14)
def test_a_request_cancelled_in_flight_ends_cancelled_when_its_batch_fails(
    impl: Implementation,
) -> None:
    """b is cancelled while its batch runs, and the batch fails as a whole: b still ends
    cancelled (its caller asked first); a gets the batch's error."""
    steps = [submit("a", 0), submit("b", 0), poll(0), cancel("b", 1), complete(1, 2, "fails")]
    want = ["queued", "queued", sends((["a", "b"], 2)), "cancelled at completion"]
    want += [(failed("a", "the batch's error"), cancelled("b"))]
    session = Session.of(steps, max_batch_size=2, max_wait=0, max_queue=4)
    expect_session(impl, session, want, rule=RULE)


@pytest.mark.rules(10)
def test_an_id_used_again_has_only_its_own_timeout(impl: Implementation) -> None:
    """x holds the one slot. a (timeout 5) is cancelled at 1, and a new request a (timeout
    100) queues at 2; c (timeout 3) times out at 4. At 6 the first a's deadline has passed,
    but that a left long ago: the new a, queued 4 ticks of its 100, does not time out."""
    steps = [submit("x", 0), poll(0), submit("a", 0, timeout=5), submit("c", 0, timeout=3)]
    steps += [cancel("a", 1), submit("a", 2, timeout=100), poll(4), poll(6)]
    want = ["queued", sends((["x"], 1)), "queued", "queued", "cancelled now", "queued"]
    want += [sends(timed_out=["c"]), NOTHING]
    session = Session.of(steps, max_batch_size=1, max_wait=0, max_queue=4)
    expect_session(impl, session, want, rule=RULE)
