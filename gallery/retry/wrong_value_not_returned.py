"""WRONG: a success ends the retries, but its value is not returned.

The loop was written around whether the call raised: `call()` is made, and
on success the function stops, returning None.  The caller retried to get
the value; it gets nothing, and cannot tell a call that returned None from
one whose value was thrown away.  Return what the call returned.
"""

from collections.abc import Callable
from random import Random
from typing import TypeVar

from variants.retry import (
    Attempt,
    Failure,
    Policy,
    RetryBudget,
    full_jitter,
    is_retryable,
    is_safe_to_repeat,
)

T = TypeVar("T")

FAILS = "retry_surface"


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
) -> T | None:
    start, history = clock(), list[Attempt]()
    while True:
        number, started = len(history) + 1, clock()
        try:
            call()  # the mistake: the value is not kept
        except Failure as failure:
            reason, wait = "", 0
            if not is_retryable(failure):
                reason = "not retryable"
            else:
                if budget is not None:
                    budget.record(success=False)
                if not is_safe_to_repeat(method, idempotency_key):
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
        return None
