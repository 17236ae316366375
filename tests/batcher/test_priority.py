"""Service order: aged requests first, then higher priority, then first come."""

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

pytestmark = [pytest.mark.batch_priority, pytest.mark.rules(6)]

RULE = (
    "service order: requests queued `ageing` ticks or more first, then higher priority, then "
    "submission order; a batch takes its bucket's requests in that order."
)


def test_a_higher_priority_goes_first(impl: Implementation) -> None:
    """a (0), b (1), c (1) in one slot, one at a time: b, then c, then a."""
    steps = [
        submit("a", 0),
        submit("b", 0, priority=1),
        submit("c", 0, priority=1),
        poll(0),
        complete(1, 1),
        poll(1),
        complete(2, 2),
        poll(2),
    ]
    want = [
        "queued",
        "queued",
        "queued",
        sends((["b"], 1)),
        results("b"),
        sends((["c"], 1)),
        results("c"),
        sends((["a"], 1)),
    ]
    session = Session.of(steps, max_batch_size=1, max_wait=0, max_queue=4)
    expect_session(impl, session, want, rule=RULE)


def test_a_batch_takes_the_highest_priorities(impl: Implementation) -> None:
    """Size 2 from a (0), b (2), c (1): the batch is b and c; a waits."""
    steps = [submit("a", 0), submit("b", 0, priority=2), submit("c", 0, priority=1), poll(0)]
    want = ["queued", "queued", "queued", sends((["b", "c"], 2))]
    session = Session.of(steps, max_batch_size=2, max_wait=0, max_queue=4)
    expect_session(impl, session, want, rule=RULE)


def test_first_come_within_a_level(impl: Implementation) -> None:
    """Three of priority 1 and size 2: the first two submitted go."""
    steps = [
        submit("x", 0, priority=1),
        submit("y", 1, priority=1),
        submit("z", 2, priority=1),
        poll(2),
    ]
    want = ["queued", "queued", "queued", sends((["x", "y"], 2))]
    session = Session.of(steps, max_batch_size=2, max_wait=0, max_queue=4)
    expect_session(impl, session, want, rule=RULE)


def test_ageing_stops_a_stream_of_higher_priorities_starving_a_request(
    impl: Implementation,
) -> None:
    """low waits at 0; a priority-1 request arrives each tick.  With ageing 3, low is
    served once it has been queued 3 ticks, ahead of the higher priorities queued later."""
    steps = [submit("low", 0), submit("h0", 0, priority=1), poll(0)]
    want = ["queued", "queued", sends((["h0"], 1))]
    for tick in range(1, 4):
        steps += [complete(tick, tick), submit(f"h{tick}", tick, priority=1), poll(tick)]
        served = "low" if tick == 3 else f"h{tick}"
        want += [results(f"h{tick - 1}"), "queued", sends(([served], 1))]
    session = Session.of(steps, max_batch_size=1, max_wait=0, max_queue=8, ageing=3)
    expect_session(impl, session, want, rule=RULE)


def test_among_aged_requests_priority_then_first_come(impl: Implementation) -> None:
    """a (0) and b (1), both aged by tick 5, and c (2) fresh: b, then a, then c."""
    steps = [
        submit("a", 0),
        submit("b", 1, priority=1),
        submit("c", 5, priority=2),
        poll(5),
        complete(1, 5),
        poll(5),
        complete(2, 5),
        poll(5),
    ]
    want = [
        "queued",
        "queued",
        "queued",
        sends((["b"], 1)),
        results("b"),
        sends((["a"], 1)),
        results("a"),
        sends((["c"], 1)),
    ]
    session = Session.of(steps, max_batch_size=1, max_wait=0, max_queue=4, ageing=4)
    expect_session(impl, session, want, rule=RULE)


def test_priority_does_not_make_a_batch_go_early(impl: Implementation) -> None:
    """A high priority reorders the queue; it is not a trigger: the batch still waits."""
    steps = [submit("a", 0, priority=9), poll(1), poll(4)]
    want = ["queued", NOTHING, sends((["a"], 1))]
    session = Session.of(steps, max_batch_size=2, max_wait=4, max_queue=4)
    expect_session(impl, session, want, rule=RULE)
