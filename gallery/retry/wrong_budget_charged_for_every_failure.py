"""WRONG: the budget charged for every failure, a 404 as much as a 503.

The retry budget measures the dependency's health: a failure that is not
retryable (a 404, a 400) is the caller's, says nothing of the dependency,
and is never retried anyway.  Charging it drains the budget in a burst of
bad requests, and then a healthy dependency's real transient failures get
no retry.  Record a failure only once it is known to be retryable.
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

FAILS = "retry_budget"


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
    deadline, done = clock() + policy.deadline, list[Attempt]()
    while True:
        began = clock()
        try:
            value = call()
        except Failure as failure:
            number = len(done) + 1

            def stop(
                reason: str, failure: Failure = failure, began: int = began, number: int = number
            ) -> Failure:
                failure.attempts = (*done, Attempt(number, began, failure, 0))
                failure.gave_up = reason
                return failure

            if budget:  # the mistake: before asking whether it is the dependency's failure
                budget.record(success=False)
            if not is_retryable(failure):
                raise stop("not retryable") from None
            if not is_safe_to_repeat(method, idempotency_key):
                raise stop("not safe to repeat") from None
            if number == policy.max_attempts:
                raise stop("attempts") from None
            if budget and not budget.allows_retry():
                raise stop("budget") from None
            pushback = failure.retry_after
            wait = (
                full_jitter(number, base=policy.base, cap=policy.cap, rng=rng)
                if pushback is None
                else min(pushback, policy.max_retry_after)
            )
            if clock() + wait >= deadline:
                raise stop("deadline") from None
            done.append(Attempt(number, began, failure, wait))
            sleep(wait)
        else:
            if budget:
                budget.record(success=True)
            return value
