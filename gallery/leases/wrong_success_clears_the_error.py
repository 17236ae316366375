"""WRONG: a success clears the error of the attempts that failed before it.

`error` is always the last failed attempt's, a succeeded request's too
(rule 9): a request that failed with "oom" and then succeeded keeps "oom",
the record that it needed a retry and why.  Setting error to None on
complete loses that history: the request reads as if it had never failed.
"""

from __future__ import annotations

from collections.abc import Hashable

from gallery.leases.wrong_scans_the_queue import Queue as Written
from variants.leases.records import Fenced, Item, Lease  # noqa: F401 (the records, read by the suite)

FAILS = "lease_retries"


class Queue(Written):
    def complete(self, lease_id: int, item_id: Hashable, result: object, *, now: int) -> None:
        lease, request = self._writer(lease_id, item_id, now)
        self._now = now
        request.status = "succeeded"
        request.result = result
        request.error = None  # the mistake: the earlier failures' error wiped
        request.lease = None
        self._end_held(lease, item_id)
