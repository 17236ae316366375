"""The whole decision procedure, as a state machine: calls through one shared budget, one clock.

Every failure here carries a Retry-After, so each wait is known and a model
can follow the contract literally: which failures are retried, the attempts,
the budget's tokens (never below 0, never above the maximum), the deadline,
and that every call either returns or raises with the reason it gave up.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest
from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    precondition,
    rule,
    run_state_machine_as_test,
)

from kata.checks import expect
from kata.impl import Implementation
from tests.support.retrying import OK, Campaign, Script, campaign, campaign_model

pytestmark = [pytest.mark.retry_limits, pytest.mark.rules(9, 13)]

RULE = (
    "after attempt n fails: not retryable, not safe to repeat, n == max_attempts, a spent "
    "budget, or a wait reaching the deadline ends the call (in that order); successes and "
    "retryable failures are recorded in the shared budget."
)
outcomes = st.lists(
    st.one_of(
        st.just(OK),
        st.tuples(st.sampled_from(["timeout", "connection_reset"]), st.none(), st.integers(0, 40)),
        st.tuples(
            st.just("status"), st.sampled_from([404, 409, 429, 500, 503]), st.integers(0, 40)
        ),
    ),
    min_size=1,
    max_size=5,
).map(tuple)
scripts = st.builds(
    Script,
    outcomes,
    method=st.sampled_from(["GET", "PUT", "POST"]),
    max_attempts=st.integers(1, 4),
    deadline=st.integers(0, 150),
    duration=st.integers(0, 20),
    max_retry_after=st.integers(0, 30),
)


@pytest.mark.alone("a stateful property (hypothesis), the backstop for what no example foresaw")
def test_calls_through_one_budget_follow_the_model(impl: Implementation) -> None:
    impl.needs("call_with_retries", "RetryBudget")

    class Calls(RuleBasedStateMachine):
        plan: Any = None

        @initialize(
            max_tokens=st.integers(1, 8),
            ratio=st.sampled_from([Fraction(1, 10), Fraction(1, 2), Fraction(1)]),
        )
        def budget(self, max_tokens: int, ratio: Fraction) -> None:
            self.plan = Campaign(max_tokens, ratio)

        @precondition(lambda self: self.plan is not None)
        @rule(script=scripts)
        def a_call(self, script: Script) -> None:
            self.plan = self.plan.then(script)

        @precondition(lambda self: self.plan is not None and self.plan.calls)
        @invariant()
        def every_call_so_far_as_the_model_says(self) -> None:
            expect(impl, campaign(self.plan), campaign_model(self.plan), rule=RULE)

    # Each check replays every call so far: a dozen calls a run keeps that quick.
    run_state_machine_as_test(Calls, settings=settings(settings.default, stateful_step_count=12))
