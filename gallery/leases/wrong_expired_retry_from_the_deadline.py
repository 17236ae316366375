"""WRONG: an expired request's backoff is counted from the lease's deadline, not from now.

A request whose lease expired is a failed attempt handled at the now of the
call that expired it, claim or expire (rule 8), and is ready at now + delay
(rule 9).  Counting the delay from renewed_at + lease_ticks, when the lease
ran out, instead makes it ready earlier the later the expiry is noticed: a
lease found expired long after its deadline sends its request back ready at
once, though its delay was drawn.
"""

from __future__ import annotations

from collections.abc import Hashable

from gallery.leases.wrong_scans_the_queue import EXPIRED, _Lease
from gallery.leases.wrong_scans_the_queue import Queue as Written
from variants.leases.records import Fenced, Item, Lease  # noqa: F401 (the records, read by the suite)

FAILS = "lease_retries"


class Queue(Written):
    def _end_lease(self, lease: _Lease, now: int) -> list[Hashable]:
        held, lease.held, lease.over = lease.held, [], True
        deadline = lease.renewed_at + self._lease_ticks  # the mistake: the deadline, not now
        for item_id in held:
            self._failed_attempt(self._requests[item_id], EXPIRED, deadline)
        return held
