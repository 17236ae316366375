"""WRONG: a request is retried at max_attempts, so the dead letter comes one attempt late.

A failed attempt is retried while attempts < max_attempts; at max_attempts
the request is dead (rule 9).  Retrying while attempts <= max_attempts
gives every request one attempt more than allowed, and its attempts exceed
max_attempts (rule 11).
"""

from __future__ import annotations

from gallery.leases.wrong_scans_the_queue import Queue as Written
from gallery.leases.wrong_scans_the_queue import _Request
from variants.leases.records import Fenced, Item, Lease  # noqa: F401 (the records, read by the suite)

FAILS = "lease_fencing"


class Queue(Written):
    def _retried(self, request: _Request) -> bool:
        return request.attempts <= self._max_attempts  # the mistake: <= for <
