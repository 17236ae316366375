"""Leases for a batch-inference queue: every request ends exactly once, a result or a dead letter.

Invariant, after every call: each request is queued (ready, or waiting out a
backoff), leased by exactly one live lease, or ended (succeeded or dead)
for good; its attempts never exceed `max_attempts`.  A write (complete,
fail, renew, release) is accepted only from the lease that holds the request
now and has not expired: the lease id is the fencing token, checked with the
write, so a worker that was only slow cannot overwrite what a later claim
was given to do.

A lease expires when `now - renewed_at > lease_ticks`: the detector's boundary,
a lease being a worker's heartbeat.  Two heaps, pruned lazily: the queued
requests by the time they are ready, and the leases by their deadline.
"""

from __future__ import annotations

import heapq
import itertools
from collections.abc import Hashable
from random import Random
from typing import Any

from variants.leases.records import Fenced, Item, Lease

EXPIRED = "lease expired"


class _Request:
    def __init__(self, item_id: Hashable, submission: int, now: int) -> None:
        self.id, self.submission, self.ready_at = item_id, submission, now
        self.status, self.attempts = "queued", 0  # queued: ready or waiting, by ready_at
        self.result: object = None
        self.error: str | None = None
        self.lease: int | None = None


class _Lease:
    def __init__(self, lease_id: int, worker: str, items: list[Hashable], now: int) -> None:
        self.id, self.worker, self.items, self.renewed_at = lease_id, worker, items, now
        self.held = len(items)  # requests it still holds; 0: the lease is over


class Queue:
    """Submit, claim under a lease, renew, complete or fail, expire, release; fenced."""

    def __init__(
        self, *, lease_ticks: int, max_attempts: int, base: int, cap: int, rng: Random
    ) -> None:
        _count(lease_ticks, "lease_ticks", 1)
        _count(max_attempts, "max_attempts", 1)
        _count(base, "base", 1)
        _count(cap, "cap", base)
        self.lease_ticks, self.max_attempts = lease_ticks, max_attempts
        self.base, self.cap = base, cap
        self._rng = rng
        self._requests: dict[Hashable, _Request] = {}
        self._leases: dict[int, _Lease] = {}
        self._queued: list[tuple[int, int, Hashable]] = []  # (ready_at, submission, id)
        self._deadlines: list[tuple[int, int]] = []  # (renewed_at + lease_ticks, lease id)
        self._ids = itertools.count(1)
        self._now: int | None = None

    def submit(self, item_id: Hashable, *, now: int) -> None:
        """A new request, ready now; ValueError for an id used before."""
        self._check_time(now)
        if self._known(item_id):
            raise ValueError(f"request id {item_id!r} was used before")
        self._now = now
        request = self._requests[item_id] = _Request(item_id, len(self._requests), now)
        heapq.heappush(self._queued, (now, request.submission, item_id))

    def claim(self, worker: str, *, now: int, limit: int) -> Lease | None:
        """Up to `limit` requests ready now, longest ready first, under one new lease."""
        self._check_time(now)
        _count(limit, "limit", 1)
        self._now = now
        self._expire(now)
        taken: list[Hashable] = []
        while self._queued and len(taken) < limit and self._queued[0][0] <= now:
            ready_at, _, item_id = heapq.heappop(self._queued)
            request = self._requests[item_id]
            if request.status == "queued" and request.ready_at == ready_at:
                taken.append(item_id)
        if not taken:
            return None
        lease = _Lease(next(self._ids), worker, taken, now)
        self._leases[lease.id] = lease
        for item_id in taken:
            request = self._requests[item_id]
            request.status, request.lease = "leased", lease.id
            request.attempts += 1
        heapq.heappush(self._deadlines, (now + self.lease_ticks, lease.id))
        return Lease(lease.id, worker, tuple(taken), now)

    def renew(self, lease_id: int, *, now: int) -> None:
        """The lease lives `lease_ticks` more from now; Fenced if it has expired or is over."""
        lease = self._live(lease_id, now)
        self._now, lease.renewed_at = now, now
        heapq.heappush(self._deadlines, (now + self.lease_ticks, lease.id))

    def complete(self, lease_id: int, item_id: Hashable, result: object, *, now: int) -> None:
        """The request succeeded with `result`, once: Fenced unless this live lease holds it."""
        lease, request = self._holding(lease_id, item_id, now)
        self._now = now
        request.status, request.result, request.lease = "succeeded", result, None
        lease.held -= 1

    def fail(self, lease_id: int, item_id: Hashable, error: str, *, now: int) -> None:
        """The attempt failed: back after a backoff, or dead at max_attempts; fenced."""
        if not isinstance(error, str):
            raise ValueError(f"an error is a str, got {error!r}")
        lease, request = self._holding(lease_id, item_id, now)
        self._now = now
        self._failed(request, error, now)
        lease.held -= 1

    def release(self, lease_id: int, *, now: int) -> None:
        """A graceful exit: what the lease holds is ready again now, its attempt not counted."""
        lease = self._live(lease_id, now)
        self._now = now
        for request in self._held(lease):
            request.status, request.lease, request.ready_at = "queued", None, now
            request.attempts -= 1
            heapq.heappush(self._queued, (now, request.submission, request.id))
        lease.held = 0

    def expire(self, *, now: int) -> list[Hashable]:
        """End every lease whose time is up; their requests fail as "lease expired"."""
        self._check_time(now)
        self._now = now
        return self._expire(now)

    def item(self, item_id: Hashable) -> Item:
        if not self._known(item_id):
            raise ValueError(f"unknown request {item_id!r}")
        request = self._requests[item_id]
        status = request.status
        if status == "queued":
            status = "ready" if self._now is None or request.ready_at <= self._now else "waiting"
        return Item(status, request.attempts, request.result, request.error)

    # --- the parts ------------------------------------------------------------------------

    def _expire(self, now: int) -> list[Hashable]:
        due: list[_Lease] = []
        while self._deadlines and self._deadlines[0][0] < now:  # now - renewed_at > lease_ticks
            deadline, lease_id = heapq.heappop(self._deadlines)
            lease = self._leases[lease_id]
            if lease.held and lease.renewed_at + self.lease_ticks == deadline:
                due.append(lease)
        expired: list[Hashable] = []
        for lease in sorted(due, key=lambda found: found.id):  # in the order claimed
            for request in self._held(lease):
                self._failed(request, EXPIRED, now)
                expired.append(request.id)
            lease.held = 0
        return expired

    def _failed(self, request: _Request, error: str, now: int) -> None:
        request.error, request.lease = error, None
        if request.attempts >= self.max_attempts:
            request.status = "dead"
            return
        shift = request.attempts - 1  # base * 2**shift, capped; no huge power for a huge shift
        ceiling = self.cap if shift >= self.cap.bit_length() else min(self.cap, self.base << shift)
        request.status, request.ready_at = "queued", now + self._rng.randint(0, ceiling)
        heapq.heappush(self._queued, (request.ready_at, request.submission, request.id))

    def _held(self, lease: _Lease) -> list[_Request]:
        """The requests the lease still holds, in the order it claimed them."""
        found = (self._requests[i] for i in lease.items)
        return [r for r in found if r.status == "leased" and r.lease == lease.id]

    def _live(self, lease_id: Any, now: int) -> _Lease:
        self._check_time(now)
        lease = self._leases.get(lease_id) if isinstance(lease_id, int) else None
        if lease is None:
            raise ValueError(f"unknown lease {lease_id!r}")
        if not lease.held:
            raise Fenced(f"lease {lease_id} is over")
        if now - lease.renewed_at > self.lease_ticks:
            raise Fenced(f"lease {lease_id} expired: last renewed at {lease.renewed_at}")
        return lease

    def _holding(self, lease_id: Any, item_id: Hashable, now: int) -> tuple[_Lease, _Request]:
        lease = self._live(lease_id, now)
        if not self._known(item_id):
            raise ValueError(f"unknown request {item_id!r}")
        request = self._requests[item_id]
        if request.status != "leased" or request.lease != lease.id:
            raise Fenced(f"lease {lease_id} does not hold request {item_id!r}")
        return lease, request

    def _known(self, item_id: Any) -> bool:
        try:
            return item_id in self._requests
        except TypeError:  # unhashable
            raise ValueError(f"a request id must be hashable, got {item_id!r}") from None

    def _check_time(self, now: int) -> None:
        _count(now, "now", None)
        if self._now is not None and now < self._now:
            raise ValueError(f"time went back: now={now} after now={self._now}")


def _count(value: Any, what: str, least: int | None) -> None:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"{what} must be an int, got {value!r}")
    if least is not None and value < least:
        raise ValueError(f"{what} must be at least {least}, got {value}")
