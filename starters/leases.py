"""Leases kata: a batch-inference queue where every request ends exactly once.

The kata's command line copies this file and gives it to you a step at a time:

    python -m kata start leases   # my_leases.py, and step 1
    python -m kata check   # the steps written so far, then the next
    python -m kata hint    # stuck? a hint (three to a step)

(or, all at once: python -m pytest --impl my_leases.py --rubric).

Standard library only.  The full contract, with the reasons behind each
rule, is variants/leases/README.md; in short:

- claim(worker, now, limit) first expires the leases that are due, then
  takes up to `limit` requests ready at `now` (ready longest first, ties by
  submission) under one new lease; each is leased, its attempts + 1.  Lease
  ids are unique and increasing: the fencing token.
- A lease expires when now - renewed_at > lease_ticks (exactly lease_ticks
  after its last renewal it is still live).  renew, complete, fail and
  release raise Fenced for a lease that has expired (even before expire()
  is called), is over, or does not hold the request; nothing changes.
- A failed attempt (fail(), or an expired lease: error "lease expired")
  with attempts < max_attempts goes back waiting, ready at now +
  rng.randint(0, min(cap, base * 2 ** (attempts - 1))); at max_attempts the
  request is dead with its last error.  release() gives back every request
  the lease holds, ready now, its attempt not counted.
- Every number is an int; time never goes back; an operation that raises
  changes nothing.
"""

from __future__ import annotations

from collections.abc import Hashable
from random import Random

from variants.leases.records import Fenced, Item, Lease


class Queue:
    def __init__(
        self, *, lease_ticks: int, max_attempts: int, base: int, cap: int, rng: Random
    ) -> None:
        """ValueError for lease_ticks, max_attempts or base below 1, or cap below base."""
        raise NotImplementedError("Queue.__init__")

    def submit(self, item_id: Hashable, *, now: int) -> None:
        """A new request, ready now; ValueError for an id used before."""
        raise NotImplementedError("Queue.submit")

    def claim(self, worker: str, *, now: int, limit: int) -> Lease | None:
        """Up to `limit` requests ready now under one new lease; None if none is ready."""
        raise NotImplementedError("Queue.claim")

    def renew(self, lease_id: int, *, now: int) -> None:
        """renewed_at = now; Fenced for a lease expired or over, ValueError if unknown."""
        raise NotImplementedError("Queue.renew")

    def complete(self, lease_id: int, item_id: Hashable, result: object, *, now: int) -> None:
        """The request succeeded with `result`; Fenced unless this live lease holds it."""
        raise NotImplementedError("Queue.complete")

    def fail(self, lease_id: int, item_id: Hashable, error: str, *, now: int) -> None:
        """The attempt failed: waiting after a backoff, or dead at max_attempts; fenced."""
        raise NotImplementedError("Queue.fail")

    def release(self, lease_id: int, *, now: int) -> None:
        """Every request the lease holds is ready again now, its attempt not counted."""
        raise NotImplementedError("Queue.release")

    def expire(self, *, now: int) -> list[Hashable]:
        """End every expired lease; its requests fail as "lease expired"; return them."""
        raise NotImplementedError("Queue.expire")

    def item(self, item_id: Hashable) -> Item:
        """The request's status (ready, waiting, leased, succeeded, dead), attempts, result,
        error."""
        raise NotImplementedError("Queue.item")


__all__ = ["Fenced", "Item", "Lease", "Queue"]
