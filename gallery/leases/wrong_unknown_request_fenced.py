"""WRONG: a write names an unknown request and is Fenced, not a ValueError.

complete and fail check the fencing before they look the request up, so a
request id nobody ever submitted is Fenced.  Fenced means "your lease no
longer holds this": a worker retries elsewhere; an unknown id is a caller's
bug, a ValueError (rule 6).
"""

from __future__ import annotations

from collections.abc import Hashable

from gallery.leases.wrong_scans_the_queue import Queue as Written
from gallery.leases.wrong_scans_the_queue import _Lease, _Request
from variants.leases.records import Fenced, Item, Lease  # noqa: F401 (the records, read by the suite)

FAILS = "lease_validation"


class Queue(Written):
    def _writer(self, lease_id: int, item_id: Hashable, now: int) -> tuple[_Lease, _Request]:
        self._check_now(now)
        lease = self._get_lease(lease_id)
        if not self._holds(lease, item_id, now):  # the mistake: fenced before it is looked up
            raise Fenced(f"lease {lease_id} does not hold {item_id!r}")
        return lease, self._get_request(item_id)
