"""WRONG: every exception retried, a bug in the call included.

`except Exception:` catches the TypeError of a wrong argument, the KeyError
of a missing field, as if the dependency had timed out; only a `Failure` is
then classified.  The bug runs again, max_attempts times, the caller waits
through the backoff for a failure that was certain, and the bug's traceback
arrives late.  Retry the `Failure` a dependency raises; anything else is
raised at once.
"""

from collections.abc import Callable
from dataclasses import dataclass
from random import Random
from typing import TypeVar

from variants.retry import (
    Policy,
    RetryBudget,
    full_jitter,
    is_safe_to_repeat,
)

T = TypeVar("T")

FAILS = "retry_surface"
RETRYABLE = {408, 429, 500, 502, 503, 504}


class Failure(Exception):  # noqa: N818 (the contract's name)
    def __init__(self, kind: str, *, status: int | None = None, retry_after: int | None = None):
        super().__init__(kind, status)
        self.kind, self.status, self.retry_after = kind, status, retry_after
        self.attempts: tuple[Attempt, ...] = ()
        self.gave_up = ""


@dataclass(frozen=True)
class Attempt:
    number: int
    started_at: int
    failure: Exception | None
    waited: int


def is_retryable(failure: Failure) -> bool:
    return failure.kind in ("timeout", "connection_reset") or failure.status in RETRYABLE


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
        except Exception as error:  # the mistake: any exception, not only a Failure
            reason, wait = "", 0
            if isinstance(error, Failure) and not is_retryable(error):
                reason = "not retryable"
            else:
                if budget is not None:
                    budget.record(success=False)
                pushback = error.retry_after if isinstance(error, Failure) else None
                if not is_safe_to_repeat(method, idempotency_key):
                    reason = "not safe to repeat"
                elif number >= policy.max_attempts:
                    reason = "attempts"
                elif budget is not None and not budget.allows_retry():
                    reason = "budget"
                else:
                    if pushback is not None:
                        wait = min(pushback, policy.max_retry_after)
                    else:
                        wait = full_jitter(number, base=policy.base, cap=policy.cap, rng=rng)
                    if clock() + wait >= start + policy.deadline:
                        reason, wait = "deadline", 0
            history.append(Attempt(number, started, error, wait))
            if reason:
                if isinstance(error, Failure):
                    error.attempts, error.gave_up = tuple(history), reason
                raise
            sleep(wait)
            continue
        if budget is not None:
            budget.record(success=True)
        return result
