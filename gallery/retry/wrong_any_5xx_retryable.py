"""WRONG: "retry on 5xx": every server error retried, and nothing else.

A 501 (Not Implemented) is a server's status that will not change on a
retry, while a 408 (Request Timeout) and a 429 (Too Many Requests) are
precisely the statuses that say "try again later": the range test gets both
wrong.  Retry a timeout, a reset, or a status in {408, 429, 500, 502, 503,
504}.
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
    is_safe_to_repeat,
)

T = TypeVar("T")

FAILS = "retry_classify"


def is_retryable(failure: Failure) -> bool:
    if failure.kind != "status":
        return True  # a timeout or a connection reset
    status = failure.status or 0
    return 500 <= status < 600  # the mistake: a range, not the retryable statuses


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
