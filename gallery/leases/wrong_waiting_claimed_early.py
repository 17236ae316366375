"""WRONG: a request waiting out its backoff is claimed before its time.

A request sent back after a failure is waiting until now + delay and not
claimable before (rule 5): the backoff is what keeps a failing request from
being retried at once, over and over.  Here a claim takes any queued
request, item() reporting it waiting all the while.
"""

from __future__ import annotations

from gallery.leases.wrong_scans_the_queue import Queue as Written
from gallery.leases.wrong_scans_the_queue import _Request
from variants.leases.records import Fenced, Item, Lease  # noqa: F401 (the records, read by the suite)

FAILS = "lease_claims"


class Queue(Written):
    def _claimable(self, request: _Request, now: int) -> bool:
        return request.status == "queued"  # the mistake: ready_at <= now not checked
