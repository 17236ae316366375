"""WRONG: the key is recorded only when the operation has finished.

Check, run, store: a duplicate that arrives while the first is still running
finds nothing stored and runs the operation again, which is exactly the
retry idempotency keys exist for (the first attempt timed out while still
running).  Mark the key as in progress, under the lock, before running.
"""

import threading
from collections.abc import Callable, Hashable
from typing import Any, TypeVar

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
            if entry is not None and self.clock() - entry["at"] >= self.ttl:
                entry = None
            if entry is not None:
                if entry["params"] != params:
                    raise ValueError(f"key {key!r} reused with other parameters")
                if entry["error"] is not None:
                    raise entry["error"]
                result: T = entry["result"]
                return result
        # the mistake: nothing marks the key while the operation runs
        try:
            result = operation()
        except Exception as error:
            with self.lock:
                self.entries[key] = {"params": params, "error": error, "at": self.clock()}
            raise
        with self.lock:
            self.entries[key] = {
                "params": params,
                "result": result,
                "error": None,
                "at": self.clock(),
            }
        return result
