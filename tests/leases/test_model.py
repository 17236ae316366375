"""Any session against the brute-force model; every request one final outcome, read from the
candidate's own answers.

Sessions are drawn step by step beside the model, whose state says which
calls make sense (mostly), with a share of impossible ones, which must
raise and change nothing.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from kata.checks import expect_that
from kata.impl import Implementation
from tests.support.leasing import (
    Model,
    Session,
    Step,
    claim,
    complete,
    expect_session,
    expire,
    fail,
    item,
    release,
    renew,
    session,
    submit,
)

pytestmark = pytest.mark.lease_model

RULE = "the contract, call by call: see variants/leases/README.md"
ACTIONS = ["submit"] * 4 + ["claim"] * 4 + ["end"] * 4 + ["renew", "release", "expire", "look"]


@st.composite
def sessions(draw: st.DrawFn) -> Session:
    script = Session.of(
        [],
        lease_ticks=draw(st.integers(1, 6)),
        max_attempts=draw(st.integers(1, 3)),
        base=1,
        cap=draw(st.integers(1, 4)),
        seed=draw(st.integers(0, 3)),
    )
    oracle, steps, now, count = Model.of(script), list[Step](), 0, 0

    def take(step: Step) -> None:
        steps.append(step)
        oracle.step(step)

    # Ids in no particular order: ties go by submission, never by id.
    labels = draw(st.permutations(range(30)))
    for action in draw(st.lists(st.sampled_from(ACTIONS), min_size=4, max_size=30)):
        now += draw(st.integers(0, 3))
        leases = len(oracle.leases)
        lease = draw(st.integers(1, leases + 1))  # now and then one never claimed
        known = list(oracle.requests) or ["nobody"]
        if action == "submit":
            take(submit(f"r{labels[count]}", now))
            count += 1
        elif action == "claim":
            take(claim(draw(st.sampled_from("wv")), now, draw(st.integers(1, 3))))
        elif action == "end":
            end = draw(st.sampled_from([complete, fail]))
            take(end(lease, draw(st.sampled_from(known)), now))
        elif action == "renew":
            take(renew(lease, now))
        elif action == "release":
            take(release(lease, now))
        elif action == "expire":
            take(expire(now))
        else:
            take(item(draw(st.sampled_from(known))))
    for request in oracle.requests:
        take(item(request))
    return Session(
        tuple(steps),
        *(getattr(script, f) for f in ("lease_ticks", "max_attempts", "base", "cap", "seed")),
    )


@pytest.mark.rules(2, 4, 5, 6, 7, 8, 9, 10)
@given(sessions())
def test_every_session_matches_the_model(impl: Implementation, script: Session) -> None:
    model = Model.of(script)
    expect_session(impl, script, [model.step(step) for step in script.steps], rule=RULE)


@pytest.mark.rules(11)
@given(sessions())
def test_every_request_has_one_outcome_and_no_more_attempts_than_allowed(
    impl: Implementation, script: Session
) -> None:
    """Read at the end: each request in one state; attempts within max_attempts; a result
    only if it succeeded."""

    def one_outcome(transcript: Any) -> bool:
        if len(transcript.observations) != len(script.steps):
            return False
        for observation in transcript.observations:
            if isinstance(observation, tuple) and observation[:1] == ("item",):
                _, status, attempts, result, _ = observation
                if not 0 <= attempts <= script.max_attempts:
                    return False
                if (result is not None) != (status == "succeeded"):
                    return False
        return True

    expect_that(
        impl,
        [session(script)],
        one_outcome,
        claim="every request read has attempts in 0..max_attempts, and a result iff it succeeded",
        rule="every request ends exactly once, and its attempts never exceed max_attempts",
    )
