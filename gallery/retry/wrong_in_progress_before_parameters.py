"""WRONG: a repeat with other parameters, arriving while the first runs, told to try later.

Other parameters under one key are a client's bug: no amount of waiting
mends them, and a client told `InProgress` will retry, then fail again once
the first request is done.  The contract tells it at once: `ValueError`
whenever the parameters differ, `InProgress` only for a true repeat.
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
                if not entry["done"]:  # the mistake: checked before the parameters
                    raise InProgress(key)
                if entry["params"] != params:
                    raise ValueError(f"key {key!r} reused with other parameters")
                if entry["error"] is not None:
                    raise entry["error"]
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
