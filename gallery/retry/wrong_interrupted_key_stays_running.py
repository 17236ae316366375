"""WRONG: an interrupted operation leaves its key marked running, for ever.

`except Exception` stores a failure, but a KeyboardInterrupt, a SystemExit
or a cancelled task is not an Exception: it passes by, the marker stays,
and every later request with the key is told InProgress, retries included,
until the process restarts.  An interruption has no outcome; the key must
be freed (`except BaseException`, or `finally`).
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
            entry = self.entries[key] = {"params": params, "done": False}
        try:
            result = operation()
        except Exception as error:
            with self.lock:
                entry.update(error=error, result=None, done=True, at=self.clock())
            raise
        # the mistake: nothing frees the key when a BaseException interrupts the operation
        with self.lock:
            entry.update(error=None, result=result, done=True, at=self.clock())
        return result
