"""When to retry a failed call, how long to wait, and when to give up.

A retry is a request the dependency did not budget for, so each one must be
earned.  After a failed attempt, in this order:

1. a failure that is not retryable (a 400, a 404, a conflict) is final;
2. an operation not safe to repeat (a POST without an idempotency key) is
   never retried: the first attempt may have been applied;
3. after `max_attempts` attempts (the first included) there is no retry;
4. a shared `RetryBudget` that is spent refuses the retry;
5. the wait is the server's Retry-After if it sent one (capped at
   `max_retry_after`), else full jitter;
6. a retry that would start at or after the deadline is not made, and the
   wait is not slept: giving up early beats sleeping into a timeout.

Giving up raises the last failure itself, never a substitute, with the
history of the attempts on it (``failure.attempts``) and why
(``failure.gave_up``).  Time and randomness are injected: ``clock()`` and
``sleep(ticks)`` are the caller's, so tests run on a fake clock.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from random import Random
from typing import TypeVar

from variants.retry.backoff import full_jitter
from variants.retry.budget import RetryBudget

T = TypeVar("T")

KINDS = ("timeout", "connection_reset", "status")
RETRYABLE_STATUSES = frozenset({408, 429, 500, 502, 503, 504})
IDEMPOTENT_METHODS = frozenset({"GET", "HEAD", "OPTIONS", "PUT", "DELETE"})


class Failure(Exception):  # noqa: N818 (the contract's name: a failed attempt)
    """A failed attempt: a timeout, a connection reset, or a status, with any Retry-After."""

    def __init__(self, kind: str, *, status: int | None = None, retry_after: int | None = None):
        if kind not in KINDS or (kind == "status") != (status is not None):
            raise ValueError(f"a failure is one of {KINDS}, with a status only for 'status'")
        if retry_after is not None and retry_after < 0:
            raise ValueError(f"retry_after must be >= 0, got {retry_after}")
        super().__init__(kind if status is None else f"status {status}")
        self.kind, self.status, self.retry_after = kind, status, retry_after
        self.attempts: tuple[Attempt, ...] = ()
        self.gave_up = ""


@dataclass(frozen=True)
class Policy:
    max_attempts: int  # the first attempt included
    deadline: int  # ticks from the first attempt's start; no attempt starts at or after it
    base: int  # full jitter between attempts: uniform in [0, min(cap, base * 2**(r-1))]
    cap: int
    max_retry_after: int  # the longest Retry-After honoured

    def __post_init__(self) -> None:
        if self.max_attempts < 1 or self.deadline < 0 or self.max_retry_after < 0:
            raise ValueError("max_attempts must be >= 1; deadline and max_retry_after >= 0")
        if not 1 <= self.base <= self.cap:
            raise ValueError(f"need 1 <= base <= cap, got base={self.base}, cap={self.cap}")


@dataclass(frozen=True)
class Attempt:
    number: int  # 1 for the first
    started_at: int
    failure: Failure | None  # None: it succeeded
    waited: int  # slept after it before the next attempt (0 if none followed)


def is_retryable(failure: Failure) -> bool:
    """A timeout, a connection reset, or a status in RETRYABLE_STATUSES."""
    return failure.kind != "status" or failure.status in RETRYABLE_STATUSES


def is_safe_to_repeat(method: str, idempotency_key: str | None) -> bool:
    """An idempotent method, or any method carrying an idempotency key.

    Methods are case-sensitive (RFC 9110, section 9.1): "get" is not GET.
    """
    return method in IDEMPOTENT_METHODS or idempotency_key is not None


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
    """The call's result, retried by `policy`; else raise its last Failure, with the history.

    Only `Failure` is retried; any other exception is a bug, and passes through.
    """
    start, history = clock(), list[Attempt]()

    def why_not_retry(failure: Failure, number: int) -> tuple[str, int]:
        """Why not to retry after attempt `number` ("" if it should), and the wait first."""
        if not is_retryable(failure):
            return "not retryable", 0
        if budget is not None:
            budget.record(success=False)
        if not is_safe_to_repeat(method, idempotency_key):
            return "not safe to repeat", 0
        if number >= policy.max_attempts:
            return "attempts", 0
        if budget is not None and not budget.allows_retry():
            return "budget", 0
        if failure.retry_after is not None:
            wait = min(failure.retry_after, policy.max_retry_after)
        else:
            wait = full_jitter(number, base=policy.base, cap=policy.cap, rng=rng)
        if clock() + wait >= start + policy.deadline:
            return "deadline", 0
        return "", wait

    while True:
        number, started = len(history) + 1, clock()
        try:
            result = call()
        except Failure as failure:
            reason, wait = why_not_retry(failure, number)
            history.append(Attempt(number, started, failure, wait))
            if reason:
                failure.attempts, failure.gave_up = tuple(history), reason
                raise
            sleep(wait)
            continue
        if budget is not None:
            budget.record(success=True)
        return result
