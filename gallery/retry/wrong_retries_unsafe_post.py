"""WRONG: a POST without an idempotency key is retried.

The timeout may have come after the server applied the request: retrying a
non-idempotent call can charge a card twice.  Retry only idempotent methods,
or calls carrying an idempotency key the server deduplicates on.
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
    idempotency_key: str | None = None,  # the mistake: never consulted
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
                if number >= policy.max_attempts:
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
