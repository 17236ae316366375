"""WRONG: release refuses only a lease that is over, so an expired lease gives its requests back.

A release is fenced as complete is (rule 10): a lease past its deadline
holds nothing, even before expire() has run.  Releasing it hands its
requests back ready with their attempt uncounted, so a worker that died
mid-attempt costs the request nothing, and the lease's expiry is lost.
"""

from __future__ import annotations

from gallery.leases.wrong_scans_the_queue import Queue as Written
from gallery.leases.wrong_scans_the_queue import _Lease
from variants.leases.records import Fenced, Item, Lease  # noqa: F401 (the records, read by the suite)

FAILS = "lease_retries"


class Queue(Written):
    def _releasable(self, lease: _Lease, now: int) -> bool:
        return not lease.over  # the mistake: the deadline not checked
