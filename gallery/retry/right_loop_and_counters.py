"""RIGHT, written unlike the reference: a loop of explicit steps, integer token counts, a Condition.

Backoff doubles a wait step by step and stops at the cap (never more than
cap.bit_length() steps); jitter draws with randrange; the policy is one
while loop returning early; the budget counts tokens in units of the ratio's
denominator, so it stays in integers; the idempotency store tracks running
keys in a set guarded by a Condition.  Its own Failure, Policy and Attempt
types.  The suite compares answers by field, so all of this must pass.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Hashable
from dataclasses import dataclass
from fractions import Fraction
from random import Random
from typing import Any, NamedTuple, TypeVar

T = TypeVar("T")
FAILS = None
RETRYABLE = {408, 429, 500, 502, 503, 504}


def exponential_backoff(retry: int, *, base: int, cap: int) -> int:
    if retry < 1 or base < 1 or cap < base:
        raise ValueError(f"bad backoff: retry={retry} base={base} cap={cap}")
    wait = base
    for _ in range(retry - 1):
        if wait >= cap:
            break
        wait *= 2
    return min(wait, cap)


def full_jitter(retry: int, *, base: int, cap: int, rng: Random) -> int:
    return rng.randrange(exponential_backoff(retry, base=base, cap=cap) + 1)


def equal_jitter(retry: int, *, base: int, cap: int, rng: Random) -> int:
    top = exponential_backoff(retry, base=base, cap=cap)
    half = top // 2
    return half + rng.randrange(top - half + 1)


def decorrelated_jitter(previous: int, *, base: int, cap: int, rng: Random) -> int:
    if base < 1 or cap < base or previous < base:
        raise ValueError(f"bad decorrelated jitter: previous={previous} base={base} cap={cap}")
    return min(cap, base + rng.randrange(3 * previous - base + 1))


class Failure(Exception):  # noqa: N818 (the contract's name)
    def __init__(self, kind: str, *, status: int | None = None, retry_after: int | None = None):
        super().__init__(kind, status)
        self.kind, self.status, self.retry_after = kind, status, retry_after
        self.attempts: tuple[Attempt, ...] = ()
        self.gave_up = ""


class Policy(NamedTuple):
    max_attempts: int
    deadline: int
    base: int
    cap: int
    max_retry_after: int


@dataclass(frozen=True)
class Attempt:
    number: int
    started_at: int
    failure: Failure | None
    waited: int


def is_retryable(failure: Failure) -> bool:
    return failure.kind in ("timeout", "connection_reset") or failure.status in RETRYABLE


def is_safe_to_repeat(method: str, idempotency_key: str | None) -> bool:
    return idempotency_key is not None or method in {
        "GET",
        "HEAD",
        "OPTIONS",
        "PUT",
        "DELETE",
    }


class RetryBudget:
    """Tokens kept as an integer count of 1/denominator units."""

    def __init__(self, max_tokens: int, token_ratio: Fraction | int | float) -> None:
        ratio = Fraction(token_ratio)
        if max_tokens < 1 or ratio <= 0 or ratio > 1:
            raise ValueError("need max_tokens >= 1 and 0 < token_ratio <= 1")
        self.unit = ratio.denominator
        self.top, self.earn, self.units = (
            max_tokens * self.unit,
            ratio.numerator,
            max_tokens * self.unit,
        )

    @property
    def tokens(self) -> Fraction:
        return Fraction(self.units, self.unit)

    def record(self, *, success: bool) -> None:
        self.units = (
            min(self.top, self.units + self.earn) if success else max(0, self.units - self.unit)
        )

    def allows_retry(self) -> bool:
        return 2 * self.units > self.top


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

            if not is_retryable(failure):
                raise stop("not retryable") from None
            if budget:
                budget.record(success=False)
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


class InProgress(Exception):  # noqa: N818 (the contract's name)
    pass


class IdempotencyStore:
    def __init__(self, ttl: int, *, clock: Callable[[], int]) -> None:
        if ttl < 1:
            raise ValueError("ttl must be positive")
        self.ttl, self.clock = ttl, clock
        self.running: dict[str, Hashable] = {}
        self.done: dict[str, tuple[Hashable, int, bool, Any]] = {}  # params, at, failed, value
        self.guard = threading.Condition()

    def execute(self, key: str, params: Hashable, operation: Callable[[], T]) -> T:
        with self.guard:
            if key in self.running:
                if self.running[key] != params:
                    raise ValueError("same key, other parameters")
                raise InProgress(key)
            stored = self.done.get(key)
            if stored is not None and self.clock() - stored[1] < self.ttl:
                if stored[0] != params:
                    raise ValueError("same key, other parameters")
                if stored[2]:
                    raise stored[3]
                kept: T = stored[3]
                return kept
            self.running[key] = params
        try:
            value = operation()
        except Exception as error:
            self._finish(key, (params, self.clock(), True, error))
            raise
        except BaseException:
            self._finish(key, None)
            raise
        self._finish(key, (params, self.clock(), False, value))
        return value

    def _finish(self, key: str, outcome: tuple[Hashable, int, bool, Any] | None) -> None:
        with self.guard:
            del self.running[key]
            if outcome is not None:
                self.done[key] = outcome
