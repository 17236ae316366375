"""WRONG: the idempotency key is checked, the parameters are not.

A client that reuses a key for another request (a bug, or a key derived
from too little) silently gets the first request's outcome: a transfer of
99 answered with the receipt of a transfer of 10.  Compare the parameters,
and refuse a mismatch.
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
            entry = self.entries.get(key)
            if entry is not None and entry["done"] and self.clock() - entry["at"] >= self.ttl:
                entry = None
            if entry is not None:
                # the mistake: entry["params"] is never compared with params
                if not entry["done"]:
                    raise InProgress(key)
                if entry["error"] is not None:
                    raise entry["error"]
                result: T = entry["result"]
                return result
            entry = self.entries[key] = {"params": params, "done": False, "error": None}
        try:
            result = operation()
        except Exception as error:
            with self.lock:
                entry.update(done=True, error=error, at=self.clock())
            raise
        except BaseException:  # interrupted: no outcome, and the key is free again
            with self.lock:
                self.entries.pop(key, None)
            raise
        with self.lock:
            entry.update(done=True, result=result, at=self.clock())
        return result
