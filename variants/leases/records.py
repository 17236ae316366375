"""The lease queue's records: a lease, a request's state, the error of a stale lease."""

from __future__ import annotations

from collections.abc import Hashable
from typing import NamedTuple

STATUSES = ("ready", "waiting", "leased", "succeeded", "dead")


class Lease(NamedTuple):
    id: int  # unique and increasing: the fencing token
    worker: str
    items: tuple[Hashable, ...]  # in the order claimed
    renewed_at: int


class Item(NamedTuple):
    status: str  # one of STATUSES
    attempts: int  # claims counted, a released one given back
    result: object = None  # once succeeded
    error: str | None = None  # the last failed attempt's


class Fenced(Exception):  # noqa: N818 (the contract's name: a fencing refusal, not a bug)
    """An operation on a lease that no longer holds the request: expired, over or superseded."""
