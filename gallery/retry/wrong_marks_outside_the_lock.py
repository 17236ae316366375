"""WRONG: the key is looked up under the lock, but marked as running after it is released.

Check, then act, with the lock held only for the check: two requests with
one key can both find it free before either marks it, and both run the
operation.  The marker must be set in the same critical section as the
look-up that found the key free.
"""

import threading
from collections.abc import Callable, Hashable
from typing import Any, TypeVar

from variants.retry import InProgress

T = TypeVar("T")

FAILS = "retry_concurrency"


class IdempotencyStore:
    def __init__(self, ttl: int, *, clock: Callable[[], int]) -> None:
        if ttl <= 0:
            raise ValueError("ttl must be > 0")
        self.ttl, self.clock = ttl, clock
        self.entries: dict[str, dict[str, Any]] = {}
        self.lock = threading.Lock()

    def execute(self, key: str, params: Hashable, operation: Callable[[], T]) -> T:
        with self.lock:
            entry = self.entries.get(key)
            if entry is not None and entry["done"] and self.clock() - entry["at"] >= self.ttl:
                entry = None
        if entry is not None:
            if entry["params"] != params:
                raise ValueError(f"key {key!r} reused with other parameters")
            if not entry["done"]:
                raise InProgress(key)
            if entry["error"] is not None:
                raise entry["error"]
            result: T = entry["result"]
            return result
        entry = {"params": params, "done": False}  # the mistake: marked outside the lock
        self.entries[key] = entry
        try:
            result = operation()
        except Exception as error:
            with self.lock:
                entry.update(error=error, result=None, done=True, at=self.clock())
            raise
        except BaseException:  # interrupted: no outcome, and the key is free again
            with self.lock:
                self.entries.pop(key, None)
            raise
        with self.lock:
            entry.update(error=None, result=result, done=True, at=self.clock())
        return result
