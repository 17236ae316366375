"""Any session of calls, against the brute-force model; and nothing accepted is ever lost.

The model (`tests.support.batching.Model`) is the contract in its own words.
A session is drawn step by step beside the model, whose state says which
calls make sense next: mostly traffic (time passes, requests arrive, the
batcher is polled), with completions of every kind, cancellations, old ids,
next_wakeup and, late, close.  At the end the batcher is closed and driven
until everything has ended.  The whole transcript must be the model's, and
every accepted request must end exactly once.

Steps are drawn with fixed weights rather than as a rule-based state
machine's rules, which a run may switch off: every session here carries
traffic.  Sessions never pair two problems in one call (a closed batcher and
a full queue, say): which one a batcher names first is its own choice.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from kata.checks import expect_that
from kata.impl import Implementation
from tests.support.batching import (
    Model,
    Session,
    Step,
    cancel,
    close,
    complete,
    expect_session,
    poll,
    session,
    submit,
    wakeup,
)

pytestmark = [pytest.mark.batch_model, pytest.mark.rules(17)]

RULE = "the contract, step by step: see variants/batcher/README.md"

configs = st.fixed_dictionaries(
    {
        "max_batch_size": st.integers(1, 6),
        "max_wait": st.integers(0, 12),
        "max_queue": st.integers(1, 8),
        "max_in_flight": st.integers(1, 2),
    },
    optional={
        "token_budget": st.integers(8, 30),
        "ageing": st.integers(0, 10),
        "buckets": st.sampled_from([(3,), (3, 6)]),
    },
)
ACTIONS = (["traffic"] * 6 + ["time"] * 3 + ["complete"] * 6 + ["cancel"] * 2 + ["wakeup"] * 2) + [
    "old id",
    "close",
]
HOW = ["results", "results", "errors", "fails", "too few", "too many"]


@st.composite
def sessions(draw: st.DrawFn) -> Session:
    config = draw(configs)
    oracle, steps, now, names = Model(**config), list[Step](), 0, iter(range(10_000))

    def take(step: Step) -> Any:
        steps.append(step)
        return oracle.step(step)

    def blocked() -> bool:  # closed and full: a submit would pair two problems
        return bool(oracle.closed and len(oracle.queue) >= oracle.bound)

    def request(name: Any) -> Step:
        tokens = draw(st.integers(1, min(8, oracle.budget or 8)))
        priority = draw(st.integers(0, 2))
        timeout = draw(st.none() | st.integers(0, 12))
        return submit(name, now, tokens=tokens, priority=priority, timeout=timeout)

    for action in draw(st.lists(st.sampled_from(ACTIONS), min_size=8, max_size=40)):
        if action == "traffic":
            now += draw(st.integers(0, 3))
            for _ in range(draw(st.integers(0, 2))):
                if not blocked():
                    take(request(f"r{next(names)}"))
            take(poll(now))
        elif action == "time":
            now += draw(st.integers(1, 6))
            take(poll(now))
        elif action == "complete" and oracle.sent:
            out, usual = sorted(oracle.in_flight), draw(st.integers(0, 7)) > 0
            if out and usual:
                number = draw(st.sampled_from(out))
            else:  # maybe one completed already: ValueError
                number = draw(st.integers(1, oracle.sent))
            how: Any = draw(st.sampled_from(HOW))
            if how == "errors":
                batch = sorted(oracle.in_flight.get(number, ()), key=str)
                how = ("errors", tuple(draw(st.sets(st.sampled_from([*batch, "x"])))))
            now += draw(st.integers(0, 3))
            take(complete(number, now, how))
        elif action == "cancel":
            take(cancel(draw(st.sampled_from([*sorted(oracle.busy(), key=str), "nobody"])), now))
        elif action == "old id" and oracle.rank and not oracle.closed:
            if len(oracle.queue) >= oracle.bound:  # a duplicate must not meet a full queue
                continue
            # an id that has ended is free again; one queued or in flight is a duplicate
            take(request(draw(st.sampled_from(sorted(oracle.rank, key=str)))))
        elif action == "wakeup" and steps and steps[-1][0] == "poll":
            wake = take(wakeup())[1]
            if wake is not None:
                now = max(now, wake)
                take(poll(now))
        elif action == "close" and len(steps) >= 12 and not oracle.closed:
            take(close())
    if not oracle.closed:
        take(close())
    while oracle.queue or oracle.in_flight:  # drive it until everything has ended
        now += 1
        take(poll(now))
        for number in sorted(oracle.in_flight):
            take(complete(number, now))
    return Session.of(steps, **config)


@given(sessions())
def test_every_session_matches_the_model(impl: Implementation, script: Session) -> None:
    """The whole transcript: batches, endings, refusals, wake-ups."""
    model = Model(**script.settings)
    expect_session(impl, script, [model.step(step) for step in script.steps], rule=RULE)


@given(sessions())
def test_every_accepted_request_ends_exactly_once(impl: Implementation, script: Session) -> None:
    """Closed and driven to the end, nothing accepted is lost and nothing ends twice."""

    def each_accepted_request_ended_once(transcript: Any) -> bool:
        accepted: Counter[Any] = Counter()
        ended: Counter[Any] = Counter()
        if len(transcript.observations) < len(script.steps):
            return False  # it raised something unexpected on the way
        for step, seen in zip(script.steps, transcript.observations, strict=True):
            if step[0] == "submit" and seen == "queued":
                accepted[step[1]] += 1
            elif step[0] == "cancel" and seen == "cancelled now":
                ended[step[1]] += 1
            elif step[0] == "poll":
                ended.update(seen[3])
            elif step[0] == "complete" and isinstance(seen, tuple):
                ended.update(request_id for request_id, *_ in seen)
        return accepted == ended

    expect_that(
        impl,
        [session(script)],
        each_accepted_request_ended_once,
        claim="every accepted request ends once: a result, an error, cancelled or timed out",
        rule="nothing accepted is lost, and nothing ends twice",
    )
