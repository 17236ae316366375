"""WRONG: the last attempt records the wait it chose not to sleep.

When the deadline ends the call, the wait was computed (the check needs it)
but never slept; `waited` is what was slept after the attempt, so the last
attempt's is 0.  Recording the unslept wait makes the history claim time
that was never spent.
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
                if not is_safe_to_repeat(method, idempotency_key):
                    reason = "not safe to repeat"
                elif number == policy.max_attempts:
                    reason = "attempts"
                elif budget is not None and not budget.allows_retry():
                    reason = "budget"
                else:
                    if failure.retry_after is not None:
                        wait = min(failure.retry_after, policy.max_retry_after)
                    else:
                        wait = full_jitter(number, base=policy.base, cap=policy.cap, rng=rng)
                    if clock() + wait >= start + policy.deadline:
                        reason = "deadline"  # the mistake: the wait is kept
            history.append(Attempt(number, started, failure, wait))
            if reason:
                failure.attempts, failure.gave_up = tuple(history), reason
                raise
            sleep(wait)
            continue
        if budget is not None:
            budget.record(success=True)
        return result
