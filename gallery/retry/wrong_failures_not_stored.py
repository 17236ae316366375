"""WRONG: only successes are stored; a failed execution is forgotten.

The client retries precisely because it saw a failure (or nothing at all):
if the first run failed after charging the card, the retry runs it again.
Store the outcome, success or failure, and replay it.
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
                if entry["params"] != params:
                    raise ValueError(f"key {key!r} reused with other parameters")
                if not entry["done"]:
                    raise InProgress(key)
                result: T = entry["result"]
                return result
            entry = self.entries[key] = {"params": params, "done": False}
        try:
            result = operation()
        except Exception:
            with self.lock:
                del self.entries[key]  # the mistake: the failure is not stored
            raise
        except BaseException:  # interrupted: no outcome, and the key is free again
            with self.lock:
                self.entries.pop(key, None)
            raise
        with self.lock:
            entry.update(done=True, result=result, at=self.clock())
        return result
