"""WRONG: None taken to mean "nothing stored", so an operation that returned None runs again.

A stored outcome is an outcome whatever its value.  A handler that charges a
card and returns None is charged again on every retry when the store looks
for `result is None` to decide whether the operation has run.
"""

import threading
from collections.abc import Callable, Hashable
from typing import Any, TypeVar

from variants.retry import InProgress

T = TypeVar("T")

FAILS = "retry_idempotency"


class IdempotencyStore:
    def __init__(self, ttl: int, *, clock: Callable[[], int]) -> None:
        if ttl <= 0:
            raise ValueError("ttl must be > 0")
        self.ttl, self.clock = ttl, clock
        self.entries: dict[str, dict[str, Any]] = {}
        self.lock = threading.Lock()

    def execute(self, key: str, params: Hashable, operation: Callable[[], T]) -> T:
        with self.lock:
            now = self.clock()
            entry = self.entries.get(key)
            if entry is not None and entry["done"] and now - entry["at"] >= self.ttl:
                entry = None
            if entry is not None:
                if entry["params"] != params:
                    raise ValueError(f"key {key!r} reused with other parameters")
                if not entry["done"]:
                    raise InProgress(key)
                if entry["error"] is not None:
                    raise entry["error"]
                # the mistake: a stored None reads as "never ran", so it runs again
                if entry["result"] is not None:
                    result: T = entry["result"]
                    return result
            entry = self.entries[key] = {"params": params, "done": False}
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
