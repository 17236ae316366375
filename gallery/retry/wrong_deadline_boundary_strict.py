"""WRONG: the call gives up only when the wait would pass the deadline (`>`), not reach it.

Rule 9: the call gives up with "deadline" if `clock() + wait >= start +
deadline`, so a wait that lands exactly on the deadline is not slept: the
retry after it would start when the caller has already stopped waiting for
it.  With `>`, a Retry-After of 300 at tick 1,000 with the deadline at
1,300 is slept in full, and the retry is sent at 1,300, to be thrown away
whatever it answers.
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

FAILS = "retry_limits"


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
                    if clock() + wait > start + policy.deadline:  # the mistake: > for >=
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
