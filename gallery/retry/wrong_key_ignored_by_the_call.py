"""WRONG: the call decides what is safe to repeat by the method alone.

The idempotency key is what makes a POST safe to retry: the server runs a
keyed request once, however often it arrives.  A call that looks only at
the method gives up on a keyed POST after one timeout, so the key the
caller went to the trouble of sending buys nothing.
"""

from collections.abc import Callable
from random import Random
from typing import TypeVar

from variants.retry import (
    IDEMPOTENT_METHODS,
    Attempt,
    Failure,
    Policy,
    RetryBudget,
    full_jitter,
    is_retryable,
)

T = TypeVar("T")

FAILS = "retry_classify"


def call_with_retries(
    call: Callable[[], T],
    *,
    method: str,
    policy: Policy,
    clock: Callable[[], int],
    sleep: Callable[[int], None],
    rng: Random,
    idempotency_key: str | None = None,
    budget: RetryBudget | None = None,
) -> T:
    start, history = clock(), list[Attempt]()
    while True:
        number, started = len(history) + 1, clock()
        try:
            result = call()
        except Failure as failure:
            reason, wait = "", 0
            if not is_retryable(failure):
                reason = "not retryable"
            else:
                if budget is not None:
                    budget.record(success=False)
                if method not in IDEMPOTENT_METHODS:  # the mistake: the key is never looked at
                    reason = "not safe to repeat"
                elif number >= policy.max_attempts:
                    reason = "attempts"
                elif budget is not None and not budget.allows_retry():
                    reason = "budget"
                else:
                    if failure.retry_after is not None:
                        wait = min(failure.retry_after, policy.max_retry_after)
                    else:
                        wait = full_jitter(number, base=policy.base, cap=policy.cap, rng=rng)
                    if clock() + wait >= start + policy.deadline:
                        reason, wait = "deadline", 0
            history.append(Attempt(number, started, failure, wait))
            if reason:
                failure.attempts, failure.gave_up = tuple(history), reason
                raise
            sleep(wait)
            continue
        if budget is not None:
            budget.record(success=True)
        return result
