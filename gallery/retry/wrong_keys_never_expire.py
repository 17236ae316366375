"""WRONG: stored outcomes never expire.

The table grows with every request forever, and a key reused a week later
(clients recycle them) replays a stale outcome instead of running.  An
outcome lives `ttl` ticks after it was stored.
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
            entry = self.entries.get(key)  # the mistake: never checked against the ttl
            if entry is not None:
                if entry["params"] != params:
                    raise ValueError(f"key {key!r} reused with other parameters")
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
                entry.update(done=True, error=error)
            raise
        except BaseException:  # interrupted: no outcome, and the key is free again
            with self.lock:
                self.entries.pop(key, None)
            raise
        with self.lock:
            entry.update(done=True, result=result)
        return result
