"""WRONG: parameters taken on trust: nothing impossible is refused.

A retry of 0, a base of 0, a cap below base, a previous wait below base, a
budget of no tokens or a ratio above 1, a time to live of 0: each is a
caller's bug, and each is answered with something (a wait of base, a budget
that never allows a retry, a store that remembers nothing) instead of being
refused.  The bug surfaces later, as a wrong schedule in production.  Check
the parameters and raise ValueError.
"""

import threading
from collections.abc import Callable, Hashable
from fractions import Fraction
from random import Random
from typing import Any, TypeVar

from variants.retry import InProgress

T = TypeVar("T")

FAILS = "retry_validation"


def exponential_backoff(retry: int, *, base: int, cap: int) -> int:
    wait = base  # the mistake here and below: nothing is checked
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
    return min(cap, base + rng.randrange(3 * previous - base + 1))


class RetryBudget:
    def __init__(self, max_tokens: int, token_ratio: Fraction | int | float) -> None:
        self.max_tokens, self.token_ratio = max_tokens, Fraction(token_ratio)
        self.tokens = Fraction(max_tokens)

    def record(self, *, success: bool) -> None:
        if success:
            self.tokens = min(Fraction(self.max_tokens), self.tokens + self.token_ratio)
        else:
            self.tokens = max(Fraction(0), self.tokens - 1)

    def allows_retry(self) -> bool:
        return self.tokens > Fraction(self.max_tokens, 2)


class IdempotencyStore:
    def __init__(self, ttl: int, *, clock: Callable[[], int]) -> None:
        self.ttl, self.clock = ttl, clock
        self.running: dict[str, Hashable] = {}
        self.done: dict[str, tuple[Hashable, int, bool, Any]] = {}  # params, at, failed, value
        self.lock = threading.Lock()

    def execute(self, key: str, params: Hashable, operation: Callable[[], T]) -> T:
        with self.lock:
            if key in self.running:
                if self.running[key] != params:
                    raise ValueError(f"key {key!r} reused with other parameters")
                raise InProgress(key)
            stored = self.done.get(key)
            if stored is not None and self.clock() - stored[1] < self.ttl:
                if stored[0] != params:
                    raise ValueError(f"key {key!r} reused with other parameters")
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
        except BaseException:  # interrupted: no outcome, and the key is free again
            self._finish(key, None)
            raise
        self._finish(key, (params, self.clock(), False, value))
        return value

    def _finish(self, key: str, outcome: tuple[Hashable, int, bool, Any] | None) -> None:
        with self.lock:
            del self.running[key]
            if outcome is not None:
                self.done[key] = outcome
