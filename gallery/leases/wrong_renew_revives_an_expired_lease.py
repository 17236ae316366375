"""WRONG: renew refuses only a lease that is over, so it revives one past its deadline.

A lease that has expired is Fenced, even if expire() has not yet been
called (rule 6).  A renew that checks only whether the lease is over lets a
worker back from a long pause revive a lease the queue already counts as
lost, and its request is then never retried.
"""

from __future__ import annotations

from gallery.leases.wrong_scans_the_queue import Queue as Written
from gallery.leases.wrong_scans_the_queue import _Lease
from variants.leases.records import Fenced, Item, Lease  # noqa: F401 (the records, read by the suite)

FAILS = "lease_fencing"


class Queue(Written):
    def _renewable(self, lease: _Lease, now: int) -> bool:
        return not lease.over  # the mistake: the deadline not checked
