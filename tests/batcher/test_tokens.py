"""A token budget counts padded tokens: a batch costs its size times its longest request."""

from __future__ import annotations

import pytest

from kata.impl import Implementation
from tests.support.batching import NOTHING, Session, expect_session, poll, sends, submit

pytestmark = pytest.mark.batch_tokens

RULE = (
    "a batch holds at most token_budget padded tokens, len(batch) x its longest request "
    "(<=: exactly the budget fits); it takes its bucket's requests in service order and stops "
    "at the first that does not fit; a batch with no room for one more request is full; a "
    "request longer than the budget is refused at submit (ValueError), never queued."
)


@pytest.mark.rules(8)
def test_the_budget_counts_padding(impl: Implementation) -> None:
    """Budget 12: 2 + 2 + 5 = 9 tokens, but padded to 5 they are 15: c does not fit."""
    steps = [submit("a", 0, tokens=2), submit("b", 0, tokens=2), submit("c", 0, tokens=5), poll(0)]
    want = ["queued", "queued", "queued", sends((["a", "b"], 4))]
    session = Session.of(steps, max_batch_size=8, max_wait=10, max_queue=8, token_budget=12)
    expect_session(impl, session, want, rule=RULE)


@pytest.mark.rules(8)
def test_exactly_the_budget_fits(impl: Implementation) -> None:
    """Three of 4 tokens make 12 padded tokens: within a budget of 12, and full."""
    steps = [submit(r, 0, tokens=4) for r in "abc"] + [poll(0)]
    want = ["queued"] * 3 + [sends((["a", "b", "c"], 12))]
    session = Session.of(steps, max_batch_size=8, max_wait=10, max_queue=8, token_budget=12)
    expect_session(impl, session, want, rule=RULE)


@pytest.mark.rules(9)
def test_a_batch_with_no_room_for_one_more_is_full(impl: Implementation) -> None:
    """Budget 5, two of 2 tokens: a third, even of 1 token, would make 6: the batch goes now."""
    steps = [submit("a", 0, tokens=2), poll(0), submit("b", 1, tokens=2), poll(1)]
    want = ["queued", NOTHING, "queued", sends((["a", "b"], 4))]
    session = Session.of(steps, max_batch_size=8, max_wait=10, max_queue=8, token_budget=5)
    expect_session(impl, session, want, rule=RULE)


@pytest.mark.rules(9)
def test_a_batch_with_room_waits(impl: Implementation) -> None:
    """Budget 6, two of 2 tokens: a third of up to 2 tokens would fit, so the batch waits."""
    steps = [submit("a", 0, tokens=2), submit("b", 0, tokens=2), poll(0), poll(10)]
    want = ["queued", "queued", NOTHING, sends((["a", "b"], 4))]
    session = Session.of(steps, max_batch_size=8, max_wait=10, max_queue=8, token_budget=6)
    expect_session(impl, session, want, rule=RULE)


@pytest.mark.rules(8)
def test_no_later_request_overtakes_one_that_does_not_fit(impl: Implementation) -> None:
    """Budget 10: a (2) goes with nothing after it, since b (8) does not fit beside it and
    c (1) may not jump the queue; then b and c go together."""
    steps = [
        submit("a", 0, tokens=2),
        submit("b", 0, tokens=8),
        submit("c", 0, tokens=1),
        poll(0),
    ]
    want = ["queued"] * 3 + [sends((["a"], 2), (["b"], 8))]
    session = Session.of(
        steps, max_batch_size=8, max_wait=10, max_queue=8, token_budget=10, max_in_flight=2
    )
    expect_session(impl, session, want, rule=RULE)


@pytest.mark.rules(5)
def test_a_request_longer_than_the_budget_is_refused(impl: Implementation) -> None:
    """It would fit no batch: refused at submit; the queue behind it flows."""
    steps = [submit("huge", 0, tokens=17), submit("a", 0, tokens=3), poll(5)]
    want = ["ValueError", "queued", sends((["a"], 3))]
    session = Session.of(steps, max_batch_size=8, max_wait=5, max_queue=8, token_budget=16)
    expect_session(impl, session, want, rule=RULE)


@pytest.mark.rules(8, 9)
def test_a_request_of_exactly_the_budget_is_a_batch_alone(impl: Implementation) -> None:
    steps = [submit("a", 0, tokens=16), submit("b", 0, tokens=1), poll(0)]
    want = ["queued", "queued", sends((["a"], 16))]
    session = Session.of(steps, max_batch_size=8, max_wait=5, max_queue=8, token_budget=16)
    expect_session(impl, session, want, rule=RULE)


@pytest.mark.rules(8)
def test_without_a_budget_padding_is_still_reported(impl: Implementation) -> None:
    """No budget: the batch's padded_tokens is still its size times its longest."""
    steps = [submit("a", 0, tokens=3), submit("b", 0, tokens=10), poll(0)]
    want = ["queued", "queued", sends((["a", "b"], 20))]
    session = Session.of(steps, max_batch_size=2, max_wait=5, max_queue=8)
    expect_session(impl, session, want, rule=RULE)
