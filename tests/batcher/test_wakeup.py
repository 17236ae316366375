"""next_wakeup(), after a poll: the earliest later tick at which a poll would act unprompted."""

from __future__ import annotations

import pytest

from kata.impl import Implementation
from tests.support.batching import (
    Session,
    cancel,
    close,
    expect_session,
    poll,
    sends,
    submit,
    wakes,
    wakeup,
)

pytestmark = [pytest.mark.batch_wakeup, pytest.mark.rules(15)]

RULE = (
    "after poll(now), next_wakeup() is the earliest tick at which a poll, with nothing else "
    "happening, would send or end something: a queued request's arrival + max_wait while a "
    "batch slot is free, or its arrival + timeout + 1; None if nothing would ever (a completion, "
    "a submit or a close is the caller's own reason to poll)."
)


def test_the_oldest_requests_deadline(impl: Implementation) -> None:
    steps = [submit("a", 3), submit("b", 5), poll(5), wakeup()]
    want = ["queued", "queued", sends(), wakes(13)]
    session = Session.of(steps, max_batch_size=4, max_wait=10, max_queue=4)
    expect_session(impl, session, want, rule=RULE)


def test_a_timeout_can_come_first(impl: Implementation) -> None:
    """Timeout 4 at arrival 5: it times out at 10, before its batch's deadline at 15."""
    steps = [submit("a", 5, timeout=4), poll(5), wakeup()]
    want = ["queued", sends(), wakes(10)]
    session = Session.of(steps, max_batch_size=4, max_wait=10, max_queue=4)
    expect_session(impl, session, want, rule=RULE)


def test_nothing_queued_never_wakes(impl: Implementation) -> None:
    steps = [submit("a", 0), poll(0), wakeup()]
    want = ["queued", sends((["a"], 1)), wakes(None)]
    session = Session.of(steps, max_batch_size=4, max_wait=0, max_queue=4)
    expect_session(impl, session, want, rule=RULE)


def test_no_free_slot_no_deadline_to_wake_for(impl: Implementation) -> None:
    """b's deadline passes while a's batch holds the only slot: waking for it would find
    nothing to do, again and again (a busy loop); only a completion frees the slot."""
    steps = [submit("a", 0), poll(0), submit("b", 1), poll(1), wakeup()]
    want = ["queued", sends((["a"], 1)), "queued", sends(), wakes(None)]
    session = Session.of(steps, max_batch_size=4, max_wait=0, max_queue=4)
    expect_session(impl, session, want, rule=RULE)


def test_no_free_slot_still_wakes_for_a_timeout(impl: Implementation) -> None:
    steps = [submit("a", 0), poll(0), submit("b", 1, timeout=5), poll(1), wakeup()]
    want = ["queued", sends((["a"], 1)), "queued", sends(), wakes(7)]
    session = Session.of(steps, max_batch_size=4, max_wait=0, max_queue=4)
    expect_session(impl, session, want, rule=RULE)


def test_closing_with_slots_busy_wakes_only_for_timeouts(impl: Implementation) -> None:
    steps = [submit("a", 0), poll(0), submit("b", 1), close(), poll(2), wakeup()]
    want = ["queued", sends((["a"], 1)), "queued", "closed", sends(), wakes(None)]
    session = Session.of(steps, max_batch_size=4, max_wait=0, max_queue=4)
    expect_session(impl, session, want, rule=RULE)


def test_a_cancelled_request_sets_no_wakeup(impl: Implementation) -> None:
    """a at 3 is cancelled; b arrived at 5: wake at 15, b's deadline, not a's 13."""
    steps = [submit("a", 3), submit("b", 5), cancel("a", 6), poll(6), wakeup()]
    want = ["queued", "queued", "cancelled now", sends(), wakes(15)]
    session = Session.of(steps, max_batch_size=4, max_wait=10, max_queue=4)
    expect_session(impl, session, want, rule=RULE)
