"""WRONG: an outcome stamped with the time its operation began, not when it returned.

The time to live counts from when the outcome exists.  Stamped at the start,
a slow operation's outcome expires early, by as long as it ran: a retry
that arrives just after a slow success runs it again.
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
            began = self.clock()
            entry = self.entries.get(key)
            if entry is not None and entry["done"] and began - entry["at"] >= self.ttl:
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
            # the mistake: the time to live starts now, before the operation has run
            entry = self.entries[key] = {"params": params, "at": began, "done": False}
        try:
            result = operation()
        except Exception as error:
            with self.lock:
                entry.update(error=error, result=None, done=True)
            raise
        except BaseException:  # interrupted: no outcome, and the key is free again
            with self.lock:
                self.entries.pop(key, None)
            raise
        with self.lock:
            entry.update(error=None, result=result, done=True)
        return result
