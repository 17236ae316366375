"""Idempotency keys on the server side: a retried request is applied once.

A client retries a POST only if it carries a key; the server keeps, per key,
the parameters and the outcome of the first execution.  Invariants, for one
key within its time to live:

* the operation runs at most once, however many requests carry the key,
  whatever their interleaving across threads;
* its outcome, a result or an exception, is stored: a repeat with the same
  parameters gets it back (the same result, the same exception raised again)
  without running anything, so a retried failure is not run twice either;
* a repeat with other parameters is a client bug: ValueError;
* a repeat while the first is still running is refused (`InProgress`): it
  neither waits nor runs;
* an outcome expires `ttl` ticks after it was stored; a request at or after
  that runs anew.

Time is the injected ``clock()``.  The operation runs outside the lock, so
one slow request never blocks the others.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Hashable
from dataclasses import dataclass
from typing import Any, TypeVar

T = TypeVar("T")


class InProgress(Exception):  # noqa: N818 (a state the caller meets, as Stripe's 409)
    """A request with this key is running now; retry later."""


@dataclass
class _Entry:
    params: Hashable
    stored_at: int | None = None  # None while the first execution runs
    result: Any = None
    error: Exception | None = None


class IdempotencyStore:
    """Runs each keyed operation once within `ttl`, and replays its outcome."""

    def __init__(self, ttl: int, *, clock: Callable[[], int]) -> None:
        if ttl <= 0:
            raise ValueError(f"ttl must be > 0, got {ttl}")
        self.ttl, self._clock = ttl, clock
        self._entries: dict[str, _Entry] = {}
        self._lock = threading.Lock()

    def execute(self, key: str, params: Hashable, operation: Callable[[], T]) -> T:
        """`operation()`'s outcome: run now if the key is new (or expired), else replayed."""
        with self._lock:
            entry = self._entries.get(key)
            stored_at = None if entry is None else entry.stored_at
            if stored_at is not None and self._clock() - stored_at >= self.ttl:
                entry = None  # expired: this request runs anew
            if entry is None:
                entry = self._entries[key] = _Entry(params)
                owner = True
            else:
                owner = False
                if entry.params != params:
                    raise ValueError(f"idempotency key {key!r} was used with other parameters")
                if entry.stored_at is None:
                    raise InProgress(f"a request with idempotency key {key!r} is still running")
        if not owner:
            replayed: T = self._replay(entry)
            return replayed
        try:
            result = operation()
        except Exception as error:
            self._store(entry, error=error)
            raise
        except BaseException:
            with self._lock:  # interrupted, not an outcome: the next request runs it
                del self._entries[key]
            raise
        self._store(entry, result=result)
        return result

    def _store(self, entry: _Entry, *, result: Any = None, error: Exception | None = None) -> None:
        with self._lock:
            entry.result, entry.error, entry.stored_at = result, error, self._clock()

    @staticmethod
    def _replay(entry: _Entry) -> Any:
        if entry.error is not None:
            raise entry.error
        return entry.result
