"""WRONG: the loop's last turn taken for attempts run out, even when it succeeded.

`for number in range(1, max_attempts + 1)` with, after the loop, "if the
loop reached the last attempt, give up": a call that fails twice and
succeeds on its third of three attempts reached the last attempt too, so
its success is thrown away and the second failure raised instead.  Give up
when the last attempt *fails*; whichever attempt succeeds returns.
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
    last: Failure | None = None
    number = 0
    for number in range(1, policy.max_attempts + 1):
        started = clock()
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
            last = failure
            sleep(wait)
            continue
        break
    if number == policy.max_attempts and last is not None:  # the mistake: it may have succeeded
        last.attempts, last.gave_up = tuple(history), "attempts"
        raise last
    if budget is not None:
        budget.record(success=True)
    return result
