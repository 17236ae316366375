"""Retries kata: how long to wait, what to retry, when to give up, and how to run a retry once.

The kata's command line copies this file and gives it to you a step at a time:

    python -m kata start retry   # my_retry.py, and step 1
    python -m kata check   # the steps written so far, then the next
    python -m kata hint    # stuck? a hint (three to a step)

(or, all at once: python -m pytest --impl my_retry.py --rubric).

Each function and class is scored on its own; leave one unwritten and its
tests are reported as not attempted.  Standard library only.  The full
contract, with the reasons behind each rule, is variants/retry/README.md.

Time is integer ticks.  Randomness is the `rng` you are given (a
random.Random); time is the `clock()` and `sleep(ticks)` you are given:
never read a real clock, never really sleep.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from dataclasses import dataclass
from fractions import Fraction
from random import Random
from typing import TypeVar

T = TypeVar("T")

RETRYABLE_STATUSES = frozenset({408, 429, 500, 502, 503, 504})
IDEMPOTENT_METHODS = frozenset({"GET", "HEAD", "OPTIONS", "PUT", "DELETE"})


# --- 1. Backoff: for retry r >= 1, e = exponential_backoff(r) --------------------------


def exponential_backoff(retry: int, *, base: int, cap: int) -> int:
    """min(cap, base * 2**(retry - 1)), exactly, for any retry >= 1 (10**12 included).

    ValueError for retry < 1, base < 1 or cap < base.
    """
    raise NotImplementedError("exponential_backoff")


def full_jitter(retry: int, *, base: int, cap: int, rng: Random) -> int:
    """A uniform integer in [0, e], both ends included."""
    raise NotImplementedError("full_jitter")


def equal_jitter(retry: int, *, base: int, cap: int, rng: Random) -> int:
    """e // 2 plus a uniform integer in [0, e - e // 2]."""
    raise NotImplementedError("equal_jitter")


def decorrelated_jitter(previous: int, *, base: int, cap: int, rng: Random) -> int:
    """min(cap, a uniform integer in [base, 3 * previous]); the first retry passes base.

    ValueError also for previous < base.
    """
    raise NotImplementedError("decorrelated_jitter")


# --- 2. The decision ------------------------------------------------------------------


class Failure(Exception):  # noqa: N818 (the contract's name)
    """A failed attempt: kind "timeout", "connection_reset" or "status" (with a status)."""

    def __init__(self, kind: str, *, status: int | None = None, retry_after: int | None = None):
        super().__init__(kind if status is None else f"status {status}")
        self.kind, self.status, self.retry_after = kind, status, retry_after
        self.attempts: tuple[Attempt, ...] = ()  # set when the call gives up
        self.gave_up = ""  # why, set when the call gives up


@dataclass(frozen=True)
class Policy:
    max_attempts: int  # the first attempt included
    deadline: int  # ticks from the first attempt's start
    base: int  # full jitter between attempts
    cap: int
    max_retry_after: int  # the longest Retry-After honoured


@dataclass(frozen=True)
class Attempt:
    number: int  # 1 for the first
    started_at: int
    failure: Failure | None  # None if it succeeded
    waited: int  # the wait after it; 0 for the last


def is_retryable(failure: Failure) -> bool:
    """A timeout, a connection reset, or a status in RETRYABLE_STATUSES."""
    raise NotImplementedError("is_retryable")


def is_safe_to_repeat(method: str, idempotency_key: str | None) -> bool:
    """A method in IDEMPOTENT_METHODS (case-sensitive: "get" is not GET), or any method with
    an idempotency key."""
    raise NotImplementedError("is_safe_to_repeat")


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
    """call()'s result, retrying Failures by the policy; or raise the last Failure.

    After attempt n fails, give up (setting failure.gave_up) if, in this order:
    "not retryable"; "not safe to repeat"; "attempts" (n == max_attempts);
    "budget" (budget.allows_retry() is false); "deadline" (clock() + wait >=
    start + deadline, wait being min(retry_after, max_retry_after) if the
    failure has one, else full_jitter(n, ...)).  Else sleep(wait) and retry.
    Raise the failure itself, with failure.attempts set.  Record every success
    and every retryable failure in the budget, if one is given.
    """
    raise NotImplementedError("call_with_retries")


# --- 3. The retry budget ----------------------------------------------------------------


class RetryBudget:
    """gRPC retry throttling: tokens start at max_tokens; a success adds token_ratio (up to
    max_tokens), a failure takes 1 (down to 0); retries allowed while tokens > max_tokens / 2.
    Exact (Fraction).  ValueError unless max_tokens > 0 and 0 < token_ratio <= 1.
    """

    def __init__(self, max_tokens: int, token_ratio: Fraction | int | float) -> None:
        raise NotImplementedError("RetryBudget")

    @property
    def tokens(self) -> Fraction:
        raise NotImplementedError("RetryBudget.tokens")

    def record(self, *, success: bool) -> None:
        raise NotImplementedError("RetryBudget.record")

    def allows_retry(self) -> bool:
        raise NotImplementedError("RetryBudget.allows_retry")


# --- 4. Idempotency keys, on the server ------------------------------------------------------


class InProgress(Exception):  # noqa: N818 (the contract's name)
    """A request with this key is running now."""


class IdempotencyStore:
    """Per key, within ttl: run operation() once, store its outcome (result or exception),
    replay it for the same params, ValueError for other params (even while it runs),
    InProgress for the same params while it runs; an outcome expires ttl ticks after it was
    stored (the clock when the operation returned).  Safe from many threads at once.
    """

    def __init__(self, ttl: int, *, clock: Callable[[], int]) -> None:
        raise NotImplementedError("IdempotencyStore")

    def execute(self, key: str, params: Hashable, operation: Callable[[], T]) -> T:
        raise NotImplementedError("IdempotencyStore.execute")
