"""When a batch goes: full, or its oldest request has waited max_wait; never empty."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from kata.impl import Implementation
from tests.support.batching import (
    NOTHING,
    Session,
    cancel,
    complete,
    expect_model,
    expect_session,
    poll,
    results,
    sends,
    submit,
)

pytestmark = pytest.mark.batch_triggers

RULE = (
    "a bucket's batch is sent when it is full (max_batch_size requests, or no room for one "
    "more) or when its oldest request has waited max_wait ticks (now - arrival >= max_wait); "
    "a batch is never empty; each request's wait counts from its own arrival."
)


@pytest.mark.rules(9, 11)
def test_a_full_batch_goes_at_once(impl: Implementation) -> None:
    """Size 3: two requests wait; the third fills the batch, which goes at that poll."""
    steps = [submit("a", 0), submit("b", 0), poll(0), submit("c", 1), poll(1)]
    want = ["queued", "queued", NOTHING, "queued", sends((["a", "b", "c"], 3))]
    expect_session(
        impl, Session.of(steps, max_batch_size=3, max_wait=100, max_queue=10), want, rule=RULE
    )


@pytest.mark.rules(11)
def test_the_oldest_request_sets_the_deadline(impl: Implementation) -> None:
    """a at 0, b at 3, max_wait 5: the batch goes at 5, when a has waited 5, not at 8."""
    steps = [submit("a", 0), submit("b", 3), poll(4), poll(5), poll(6)]
    want = ["queued", "queued", NOTHING, sends((["a", "b"], 2)), NOTHING]
    expect_session(
        impl, Session.of(steps, max_batch_size=10, max_wait=5, max_queue=10), want, rule=RULE
    )


@pytest.mark.rules(7, 11)
def test_the_oldest_request_sets_the_deadline_whatever_the_service_order(
    impl: Implementation,
) -> None:
    """a (priority 0) at 0, b (priority 1) at 3, max_wait 5: b is served first, but a is
    the oldest: the batch goes at 5, when a has waited 5, not at 8 when b has."""
    steps = [submit("a", 0), submit("b", 3, priority=1), poll(4), poll(5)]
    want = ["queued", "queued", NOTHING, sends((["a", "b"], 2))]
    expect_session(
        impl, Session.of(steps, max_batch_size=10, max_wait=5, max_queue=10), want, rule=RULE
    )


@pytest.mark.rules(11)
def test_a_request_that_has_waited_exactly_max_wait_goes(impl: Implementation) -> None:
    """Waited max_wait - 1: it stays; waited max_wait: it goes (>=, not >)."""
    steps = [submit("a", 10), poll(16), poll(17)]
    want = ["queued", NOTHING, sends((["a"], 1))]
    expect_session(
        impl, Session.of(steps, max_batch_size=4, max_wait=7, max_queue=4), want, rule=RULE
    )


@pytest.mark.rules(11)
def test_max_wait_zero_waits_for_no_one(impl: Implementation) -> None:
    """With max_wait 0 each poll sends what is queued, in batches of up to max_batch_size."""
    steps = [submit("a", 0), poll(0), submit("b", 0), submit("c", 0), poll(0)]
    want = ["queued", sends((["a"], 1)), "queued", "queued", sends((["b", "c"], 2))]
    session = Session.of(steps, max_batch_size=4, max_wait=0, max_queue=4, max_in_flight=2)
    expect_session(impl, session, want, rule=RULE)


@pytest.mark.rules(11)
def test_a_size_flush_does_not_start_the_next_batchs_clock(impl: Implementation) -> None:
    """a, b fill a batch at 0; c arrives at 8: its batch goes at 18, not at 10 (a's deadline)."""
    steps = [
        submit("a", 0),
        submit("b", 0),
        poll(0),
        complete(1, 1),
        submit("c", 8),
        poll(10),
        poll(17),
        poll(18),
    ]
    want = [
        "queued",
        "queued",
        sends((["a", "b"], 2)),
        results("a", "b"),
        "queued",
        NOTHING,
        NOTHING,
        sends((["c"], 1)),
    ]
    expect_session(
        impl, Session.of(steps, max_batch_size=2, max_wait=10, max_queue=4), want, rule=RULE
    )


@pytest.mark.rules(11)
def test_what_a_size_flush_leaves_keeps_its_own_deadline(impl: Implementation) -> None:
    """Size 2, three at 0: a and b go at once; c goes when it has waited 10 ticks."""
    steps = [submit("a", 0), submit("b", 0), submit("c", 0), poll(0), poll(9), poll(10)]
    want = ["queued"] * 3 + [sends((["a", "b"], 2)), NOTHING, sends((["c"], 1))]
    session = Session.of(steps, max_batch_size=2, max_wait=10, max_queue=4, max_in_flight=2)
    expect_session(impl, session, want, rule=RULE)


@pytest.mark.rules(11)
def test_a_request_left_by_a_flush_keeps_waiting_from_its_arrival(impl: Implementation) -> None:
    """Size 2, max_wait 10: a, b, c at 0, 1, 2; a and b fill a batch that goes at 6 (the poll);
    c, left behind, goes at 12, when it has waited 10 since it arrived, not at 16."""
    steps = [submit("a", 0), submit("b", 1), submit("c", 2), poll(6), poll(11), poll(12)]
    want = ["queued"] * 3 + [sends((["a", "b"], 2)), NOTHING, sends((["c"], 1))]
    session = Session.of(steps, max_batch_size=2, max_wait=10, max_queue=4, max_in_flight=2)
    expect_session(impl, session, want, rule=RULE)


@pytest.mark.rules(12)
def test_nothing_queued_sends_nothing(impl: Implementation) -> None:
    """An empty queue sends nothing, however long it has been."""
    want = [NOTHING, NOTHING]
    session = Session.of([poll(0), poll(1_000)], max_batch_size=2, max_wait=0, max_queue=2)
    expect_session(impl, session, want, rule=RULE)


@pytest.mark.rules(11, 12)
def test_a_deadline_whose_requests_were_cancelled_sends_nothing(impl: Implementation) -> None:
    """a's deadline passes after a was cancelled: no empty batch goes."""
    steps = [submit("a", 0), cancel("a", 2), poll(5), poll(50)]
    want = ["queued", "cancelled now", NOTHING, NOTHING]
    expect_session(
        impl, Session.of(steps, max_batch_size=2, max_wait=5, max_queue=2), want, rule=RULE
    )


@pytest.mark.rules(11, 14)
def test_a_cancelled_request_leaves_the_deadline_to_the_next_oldest(impl: Implementation) -> None:
    """a at 0 and b at 5 share a bucket, max_wait 10; a is cancelled at 6: at 10 the batch
    does not go (b has waited 5); it goes at 15, when b has waited 10."""
    steps = [submit("a", 0), submit("b", 5), cancel("a", 6), poll(10), poll(14), poll(15)]
    want = ["queued", "queued", "cancelled now", NOTHING, NOTHING, sends((["b"], 1))]
    session = Session.of(steps, max_batch_size=4, max_wait=10, max_queue=4)
    expect_session(impl, session, want, rule=RULE)


@pytest.mark.rules(10, 11)
def test_a_timed_out_request_leaves_the_deadline_to_the_next_oldest(
    impl: Implementation,
) -> None:
    """a (timeout 3) at 0 and b at 2, max_wait 10: a times out at 4; at 10 nothing goes (b has
    waited 8); at 12 b goes."""
    steps = [submit("a", 0, timeout=3), submit("b", 2), poll(4), poll(10), poll(12)]
    want = ["queued", "queued", sends(timed_out=["a"]), NOTHING, sends((["b"], 1))]
    session = Session.of(steps, max_batch_size=4, max_wait=10, max_queue=4)
    expect_session(impl, session, want, rule=RULE)


@pytest.mark.rules(11, 12)
@given(
    st.lists(st.integers(0, 6), min_size=1, max_size=12),
    st.integers(1, 4),
    st.integers(0, 8),
    st.lists(st.integers(0, 4), min_size=1, max_size=8),
)
def test_any_arrivals_and_polls_match_the_model(
    impl: Implementation, gaps: list[int], size: int, wait: int, poll_gaps: list[int]
) -> None:
    """Arrivals and polls interleaved at any ticks, slots to spare: the model's batches."""
    steps, now = [], 0
    for i, gap in enumerate(gaps):
        now += gap
        steps.append(submit(f"r{i}", now))
        if i < len(poll_gaps):
            now += poll_gaps[i]
            steps.append(poll(now))
    steps.append(poll(now + wait))
    expect_model(
        impl,
        Session.of(steps, max_batch_size=size, max_wait=wait, max_queue=20, max_in_flight=20),
        rule=RULE,
    )
