"""RIGHT, written unlike the reference: sorted lists and bisect, removed from at once.

Where the reference keeps two heaps pruned lazily, this answer keeps two
lists kept sorted with `bisect.insort` and pruned eagerly: the queued
requests by (ready_at, submission), and the live leases by (deadline, lease
id).  A request leaves the queue the moment it is claimed (the claim takes
the front of the list with one slice), and a renewed or ended lease's entry
is found by `bisect` on its key and deleted there, so every entry of either
list is current.  A claim expires the front of the deadline list while it is
due, then takes the front of the queue while it is ready: O(B log n) for B
requests taken (a list insertion or deletion moves memory, but runs no
Python per element).  Its own records, dataclasses with the contract's
fields.  The suite compares what a caller sees, so all of this must pass.
"""

from __future__ import annotations

import bisect
from collections.abc import Hashable
from dataclasses import dataclass, field
from random import Random
from typing import NamedTuple

FAILS = None

EXPIRED = "lease expired"

QueueKey = tuple[int, int]  # ready_at, submission
DeadlineKey = tuple[int, int]  # renewed_at + lease_ticks, lease id


class Lease(NamedTuple):
    id: int
    worker: str
    items: tuple[Hashable, ...]
    renewed_at: int


class Item(NamedTuple):
    status: str
    attempts: int
    result: object = None
    error: str | None = None


class Fenced(Exception):  # noqa: N818 (the contract's name)
    """A write from a lease that no longer holds the request."""


@dataclass
class _Req:
    submission: int
    ready_at: int
    state: str = "queued"  # queued, leased, succeeded, dead
    attempts: int = 0
    result: object = None
    error: str | None = None
    holder: int = 0  # the lease id holding it, 0 for none


@dataclass
class _Claim:
    id: int
    worker: str
    items: tuple[Hashable, ...]
    renewed_at: int
    holding: dict[Hashable, None] = field(default_factory=dict)  # ordered, as claimed


def _whole(value: object, name: str, least: int | None = None) -> int:
    if type(value) is not int:
        raise ValueError(f"{name} must be an int, not {value!r}")
    if least is not None and value < least:
        raise ValueError(f"{name} must be at least {least}, not {value}")
    return value


class Queue:
    def __init__(
        self, *, lease_ticks: int, max_attempts: int, base: int, cap: int, rng: Random
    ) -> None:
        self._ticks = _whole(lease_ticks, "lease_ticks", 1)
        self._most = _whole(max_attempts, "max_attempts", 1)
        self._base = _whole(base, "base", 1)
        self._cap = _whole(cap, "cap", base)
        self._rng = rng
        self._reqs: dict[Hashable, _Req] = {}
        self._order: list[Hashable] = []  # by submission: the id of each
        self._queue: list[QueueKey] = []  # queued requests, sorted
        self._claims: dict[int, _Claim] = {}
        self._live: list[DeadlineKey] = []  # leases not yet over, sorted by deadline
        self._clock = 0
        self._started = False

    # -- time and lookups ------------------------------------------------------------------

    def _at(self, now: object) -> int:
        moment = _whole(now, "now")
        if self._started and moment < self._clock:
            raise ValueError(f"time went back: {moment} after {self._clock}")
        return moment

    def _pass(self, now: int) -> None:
        self._clock, self._started = now, True

    def _req(self, item_id: Hashable) -> _Req:
        try:
            found = self._reqs.get(item_id)
        except TypeError:
            found = None
        if found is None:
            raise ValueError(f"no request {item_id!r}")
        return found

    def _claim_of(self, lease_id: object, now: int) -> _Claim:
        """The lease, if it is live at `now`: ValueError if unknown, Fenced if not live."""
        found = self._claims.get(lease_id) if type(lease_id) is int else None
        if found is None:
            raise ValueError(f"no lease {lease_id!r}")
        if not found.holding:
            raise Fenced(f"lease {lease_id} is over")
        if now - found.renewed_at > self._ticks:
            raise Fenced(f"lease {lease_id} expired (renewed at {found.renewed_at})")
        return found

    # -- the sorted lists ------------------------------------------------------------------

    def _enqueue(self, req: _Req, ready_at: int) -> None:
        req.state, req.ready_at, req.holder = "queued", ready_at, 0
        bisect.insort(self._queue, (ready_at, req.submission))

    def _deadline(self, claim: _Claim) -> DeadlineKey:
        return (claim.renewed_at + self._ticks, claim.id)

    def _drop_deadline(self, claim: _Claim) -> None:
        key = self._deadline(claim)
        at = bisect.bisect_left(self._live, key)
        del self._live[at]

    def _let_go(self, claim: _Claim, item_id: Hashable) -> None:
        del claim.holding[item_id]
        if not claim.holding:
            self._drop_deadline(claim)

    # -- failures --------------------------------------------------------------------------

    def _attempt_failed(self, req: _Req, error: str, now: int) -> None:
        req.error, req.holder = error, 0
        if req.attempts >= self._most:
            req.state = "dead"
            return
        step = req.attempts - 1
        ceiling = (
            self._cap if step >= self._cap.bit_length() else min(self._cap, self._base << step)
        )
        self._enqueue(req, now + self._rng.randint(0, ceiling))

    def _expire_due(self, now: int) -> list[Hashable]:
        cut = bisect.bisect_left(self._live, (now, 0))  # deadline < now: expired
        due = sorted(lease_id for _, lease_id in self._live[:cut])  # in the order claimed
        del self._live[:cut]
        gone: list[Hashable] = []
        for lease_id in due:
            claim = self._claims[lease_id]
            held, claim.holding = list(claim.holding), {}
            for item_id in held:
                self._attempt_failed(self._reqs[item_id], EXPIRED, now)
            gone += held
        return gone

    # -- the contract ----------------------------------------------------------------------

    def submit(self, item_id: Hashable, *, now: int) -> None:
        moment = self._at(now)
        try:
            taken = item_id in self._reqs
        except TypeError:
            raise ValueError(f"a request id must be hashable: {item_id!r}") from None
        if taken:
            raise ValueError(f"request id {item_id!r} is taken")
        self._pass(moment)
        req = _Req(len(self._order), moment)
        self._reqs[item_id] = req
        self._order.append(item_id)
        self._enqueue(req, moment)

    def claim(self, worker: str, *, now: int, limit: int) -> Lease | None:
        moment = self._at(now)
        most = _whole(limit, "limit", 1)
        self._pass(moment)
        self._expire_due(moment)
        end = min(most, bisect.bisect_right(self._queue, (moment, len(self._order))))
        if end == 0:
            return None
        taken = tuple(self._order[submission] for _, submission in self._queue[:end])
        del self._queue[:end]
        lease_id = len(self._claims) + 1
        claim = _Claim(lease_id, worker, taken, moment, dict.fromkeys(taken))
        self._claims[lease_id] = claim
        for item_id in taken:
            req = self._reqs[item_id]
            req.state, req.holder = "leased", lease_id
            req.attempts += 1
        bisect.insort(self._live, self._deadline(claim))
        return Lease(lease_id, worker, taken, moment)

    def renew(self, lease_id: int, *, now: int) -> None:
        moment = self._at(now)
        claim = self._claim_of(lease_id, moment)
        self._pass(moment)
        self._drop_deadline(claim)
        claim.renewed_at = moment
        bisect.insort(self._live, self._deadline(claim))

    def _writing(self, lease_id: int, item_id: Hashable, now: int) -> tuple[_Claim, _Req]:
        moment = self._at(now)
        claim = self._claims.get(lease_id) if type(lease_id) is int else None
        if claim is None:
            raise ValueError(f"no lease {lease_id!r}")
        req = self._req(item_id)
        claim = self._claim_of(lease_id, moment)
        if req.state != "leased" or req.holder != claim.id:
            raise Fenced(f"lease {lease_id} does not hold {item_id!r}")
        return claim, req

    def complete(self, lease_id: int, item_id: Hashable, result: object, *, now: int) -> None:
        claim, req = self._writing(lease_id, item_id, now)
        self._pass(now)
        req.state, req.result, req.holder = "succeeded", result, 0
        self._let_go(claim, item_id)

    def fail(self, lease_id: int, item_id: Hashable, error: str, *, now: int) -> None:
        if not isinstance(error, str):
            raise ValueError(f"an error is a str, not {error!r}")
        claim, req = self._writing(lease_id, item_id, now)
        self._pass(now)
        self._attempt_failed(req, error, now)
        self._let_go(claim, item_id)

    def release(self, lease_id: int, *, now: int) -> None:
        moment = self._at(now)
        claim = self._claim_of(lease_id, moment)
        self._pass(moment)
        self._drop_deadline(claim)
        for item_id in claim.holding:
            req = self._reqs[item_id]
            req.attempts -= 1
            self._enqueue(req, moment)
        claim.holding = {}

    def expire(self, *, now: int) -> list[Hashable]:
        moment = self._at(now)
        self._pass(moment)
        return self._expire_due(moment)

    def item(self, item_id: Hashable) -> Item:
        req = self._req(item_id)
        status = req.state
        if status == "queued":
            status = "ready" if req.ready_at <= self._clock else "waiting"
        return Item(status, req.attempts, req.result, req.error)


__all__ = ["Fenced", "Item", "Lease", "Queue"]
