"""WRONG: the operation runs first, and the stored outcome is looked up afterwards.

The repeat gets the first answer back, so the client sees one result; but
the operation ran again, and a charge ran twice: only the reply was
deduplicated, not the effect.  Look the key up first, and run nothing for
a key that has an outcome.
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
        self.running: dict[str, Hashable] = {}
        self.done: dict[str, tuple[Hashable, int, bool, Any]] = {}  # params, at, failed, value
        self.lock = threading.Lock()

    def execute(self, key: str, params: Hashable, operation: Callable[[], T]) -> T:
        with self.lock:
            if key in self.running:
                if self.running[key] != params:
                    raise ValueError(f"key {key!r} reused with other parameters")
                raise InProgress(key)
            self.running[key] = params
        try:
            value = operation()  # the mistake: run before the stored outcome is looked up
        except Exception as error:
            outcome: tuple[Hashable, int, bool, Any] = (params, self.clock(), True, error)
        except BaseException:  # interrupted: no outcome, and the key is free again
            with self.lock:
                del self.running[key]
            raise
        else:
            outcome = (params, self.clock(), False, value)
        with self.lock:
            del self.running[key]
            stored = self.done.get(key)
            if stored is not None and self.clock() - stored[1] < self.ttl:
                if stored[0] != params:
                    raise ValueError(f"key {key!r} reused with other parameters")
                outcome = stored
            else:
                self.done[key] = outcome
        if outcome[2]:
            raise outcome[3]
        kept: T = outcome[3]
        return kept
