"""WRONG: each claim scans and sorts every request there is.

Right in behaviour, every rule of the contract kept: its only mistake is
the cost (rule 12).  A claim finds the ready requests by scanning every
request ever submitted and sorting those it found by (ready since,
submission); the due leases are found by scanning every lease ever claimed.
Claiming one request costs O(n log n) in the n requests, so with thousands
queued a worker asking for one batch reads them all.  Keep the queued
requests in a heap by the time they are ready, and the leases in one by
their deadline, pruned lazily, and pop: pay only for what is taken.

An answer written apart from the reference (plain dicts and lists, a full
scan each claim).  Every step that validates comes before any that changes
state, so a refused call changes nothing, not even the clock.  The lease
mistakes in this folder are this answer with one small method written again
as the mistake (`class Queue(Written)`), so each reads in place, against the
right version here.
"""

from __future__ import annotations

from collections.abc import Hashable
from random import Random

from variants.leases.records import Fenced, Item, Lease

FAILS = "lease_cost"

EXPIRED = "lease expired"

Entry = tuple[int, int, Hashable]  # ready_at, submission, id


class _Request:
    """One submitted request and where it is."""

    def __init__(self, seq: int, now: int) -> None:
        self.status = "queued"  # queued (ready or waiting, by ready_at), leased, succeeded, dead
        self.attempts = 0
        self.result: object = None
        self.error: str | None = None
        self.seq = seq  # submission order
        self.ready_at = now
        self.lease: int | None = None


class _Lease:
    """One claim: what it took, what it still holds."""

    def __init__(self, lease_id: int, worker: str, items: tuple[Hashable, ...], now: int) -> None:
        self.id = lease_id
        self.worker = worker
        self.items = items  # in the order claimed
        self.held = list(items)  # those not yet ended
        self.renewed_at = now
        self.over = False


class Queue:
    def __init__(
        self, *, lease_ticks: int, max_attempts: int, base: int, cap: int, rng: Random
    ) -> None:
        for value in (lease_ticks, max_attempts, base, cap):
            if not self._is_int(value):
                raise ValueError(f"not an int: {value!r}")
        if lease_ticks < 1 or max_attempts < 1 or base < 1 or cap < base:
            raise ValueError("lease_ticks, max_attempts and base at least 1, cap at least base")
        self._lease_ticks = lease_ticks
        self._max_attempts = max_attempts
        self._base = base
        self._cap = cap
        self._rng = rng
        self._requests: dict[Hashable, _Request] = {}
        self._leases: dict[int, _Lease] = {}  # in claim order
        self._next_lease = 1
        self._next_seq = 0
        self._now: int | None = None  # the latest now passed

    # -- checks (no state changes) ---------------------------------------------------------

    @staticmethod
    def _is_int(value: object) -> bool:
        return isinstance(value, int) and not isinstance(value, bool)

    def _check_now(self, now: int) -> None:
        if not self._is_int(now):
            raise ValueError(f"now is not an int: {now!r}")
        if self._now is not None and now < self._now:
            raise ValueError(f"now {now} is earlier than {self._now}")

    def _check_limit(self, limit: int) -> None:
        if not self._is_int(limit) or limit < 1:
            raise ValueError(f"limit must be an int of at least 1: {limit!r}")

    def _used(self, item_id: Hashable) -> bool:
        """Whether any request ever submitted had this id."""
        try:
            return item_id in self._requests
        except TypeError:
            raise ValueError(f"unhashable request id {item_id!r}") from None

    def _get_lease(self, lease_id: int) -> _Lease:
        if not self._is_int(lease_id) or lease_id not in self._leases:
            raise ValueError(f"unknown lease {lease_id!r}")
        return self._leases[lease_id]

    def _get_request(self, item_id: Hashable) -> _Request:
        try:
            request = self._requests.get(item_id)
        except TypeError:
            request = None
        if request is None:
            raise ValueError(f"unknown request {item_id!r}")
        return request

    def _expired(self, lease: _Lease, now: int) -> bool:
        return now - lease.renewed_at > self._lease_ticks

    def _live(self, lease: _Lease, now: int) -> bool:
        return not lease.over and not self._expired(lease, now)

    def _renewable(self, lease: _Lease, now: int) -> bool:
        return self._live(lease, now)

    def _releasable(self, lease: _Lease, now: int) -> bool:
        return self._live(lease, now)

    def _holds(self, lease: _Lease, item_id: Hashable, now: int) -> bool:
        return self._live(lease, now) and item_id in lease.held

    def _writer(self, lease_id: int, item_id: Hashable, now: int) -> tuple[_Lease, _Request]:
        """The lease and request a complete or fail writes to; Fenced unless it may."""
        self._check_now(now)
        lease = self._get_lease(lease_id)
        request = self._get_request(item_id)
        if not self._holds(lease, item_id, now):
            raise Fenced(f"lease {lease_id} does not hold {item_id!r}")
        return lease, request

    def _claimable(self, request: _Request, now: int) -> bool:
        return request.status == "queued" and request.ready_at <= now

    @staticmethod
    def _ready_order(entry: Entry) -> tuple[int, int]:
        ready_at, seq, _ = entry
        return ready_at, seq  # ready the longest first, ties by submission

    def _retried(self, request: _Request) -> bool:
        return request.attempts < self._max_attempts

    def _ceiling(self, attempts: int) -> int:
        doubling: int = 2 ** (attempts - 1)
        return min(self._cap, self._base * doubling)

    # -- state changes ---------------------------------------------------------------------

    def _count_claim(self, request: _Request) -> None:
        request.attempts += 1

    def _count_failure(self, request: _Request) -> None:
        """Attempts are counted at the claim, not here."""

    def _give_back(self, request: _Request) -> None:
        request.attempts -= 1  # a released attempt is not counted

    def _send_back(self, request: _Request, now: int, delay: int) -> None:
        request.status = "queued"
        request.ready_at = now + delay

    def _bury(self, request: _Request, error: str) -> None:
        request.status = "dead"
        request.error = error

    def _failed_attempt(self, request: _Request, error: str, now: int) -> None:
        self._count_failure(request)
        request.lease = None
        if self._retried(request):
            request.error = error
            self._send_back(request, now, self._rng.randint(0, self._ceiling(request.attempts)))
        else:
            self._bury(request, error)

    def _end_held(self, lease: _Lease, item_id: Hashable) -> None:
        if item_id in lease.held:
            lease.held.remove(item_id)
        if not lease.held:
            lease.over = True

    def _due(self, now: int) -> list[_Lease]:
        """The leases that have expired and are not yet over, in the order claimed."""
        return [
            lease for lease in self._leases.values() if not lease.over and self._expired(lease, now)
        ]

    def _end_lease(self, lease: _Lease, now: int) -> list[Hashable]:
        """An expired lease ends: each request it still holds fails, in the lease's order."""
        held, lease.held, lease.over = lease.held, [], True
        for item_id in held:
            self._expired_attempt(self._requests[item_id], now)
        return held

    def _expired_attempt(self, request: _Request, now: int) -> None:
        self._failed_attempt(request, EXPIRED, now)  # backoff and a draw, as for any failure

    def _expire(self, now: int) -> list[Hashable]:
        expired: list[Hashable] = []
        for lease in self._due(now):
            expired.extend(self._end_lease(lease, now))
        return expired

    def _before_claim(self, now: int) -> None:
        self._expire(now)

    def _take(self, now: int, limit: int) -> tuple[Hashable, ...]:
        ready = [
            (request.ready_at, request.seq, item_id)
            for item_id, request in self._requests.items()
            if self._claimable(request, now)
        ]
        ready.sort(key=self._ready_order)
        return tuple(item_id for _, _, item_id in ready[:limit])

    def _grant(self, worker: str, items: tuple[Hashable, ...], now: int) -> Lease:
        lease_id = self._next_lease
        self._next_lease += 1
        for item_id in items:
            request = self._requests[item_id]
            request.status = "leased"
            request.lease = lease_id
            self._count_claim(request)
        self._leases[lease_id] = _Lease(lease_id, worker, items, now)
        return Lease(lease_id, worker, items, now)

    # -- the contract ----------------------------------------------------------------------

    def submit(self, item_id: Hashable, *, now: int) -> None:
        """A new request, ready now; ValueError for an id used before."""
        self._check_now(now)
        if self._used(item_id):
            raise ValueError(f"request id used before: {item_id!r}")
        self._now = now
        self._requests[item_id] = _Request(self._next_seq, now)
        self._next_seq += 1

    def claim(self, worker: str, *, now: int, limit: int) -> Lease | None:
        """Up to `limit` requests ready now under one new lease; None if none is ready."""
        self._check_now(now)
        self._check_limit(limit)
        self._now = now
        self._before_claim(now)
        items = self._take(now, limit)
        if not items:
            return None
        return self._grant(worker, items, now)

    def renew(self, lease_id: int, *, now: int) -> None:
        """renewed_at = now; Fenced for a lease expired or over, ValueError if unknown."""
        self._check_now(now)
        lease = self._get_lease(lease_id)
        if not self._renewable(lease, now):
            raise Fenced(f"lease {lease_id} is expired or over")
        self._now = now
        lease.renewed_at = now

    def complete(self, lease_id: int, item_id: Hashable, result: object, *, now: int) -> None:
        """The request succeeded with `result`; Fenced unless this live lease holds it."""
        lease, request = self._writer(lease_id, item_id, now)
        self._now = now
        request.status = "succeeded"
        request.result = result
        request.lease = None
        self._end_held(lease, item_id)

    def fail(self, lease_id: int, item_id: Hashable, error: str, *, now: int) -> None:
        """The attempt failed: waiting after a backoff, or dead at max_attempts; fenced."""
        self._check_now(now)
        if not isinstance(error, str):
            raise ValueError(f"error is not a str: {error!r}")
        lease, request = self._writer(lease_id, item_id, now)
        self._now = now
        self._failed_attempt(request, error, now)
        self._end_held(lease, item_id)

    def release(self, lease_id: int, *, now: int) -> None:
        """Every request the lease holds is ready again now, its attempt not counted."""
        self._check_now(now)
        lease = self._get_lease(lease_id)
        if not self._releasable(lease, now):
            raise Fenced(f"lease {lease_id} is expired or over")
        self._now = now
        for item_id in lease.held:
            request = self._requests[item_id]
            request.status = "queued"
            request.ready_at = now
            request.lease = None
            self._give_back(request)
        lease.held = []
        lease.over = True

    def expire(self, *, now: int) -> list[Hashable]:
        """End every expired lease; its requests fail as "lease expired"; return them."""
        self._check_now(now)
        self._now = now
        return self._expire(now)

    def item(self, item_id: Hashable) -> Item:
        """The request's status, attempts, result and error."""
        request = self._get_request(item_id)
        status = request.status
        if status == "queued":
            waiting = self._now is not None and request.ready_at > self._now
            status = "waiting" if waiting else "ready"
        return Item(status, request.attempts, request.result, request.error)


__all__ = ["Fenced", "Item", "Lease", "Queue"]
