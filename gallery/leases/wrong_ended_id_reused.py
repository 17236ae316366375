"""WRONG: the id of a request that has ended can be submitted again.

An id is refused only while its request is active; once it has succeeded
or died it may be submitted again, and the new request overwrites the old
one's result.  An id used before, by any request ever submitted, is a
ValueError (rule 2): an idempotent submit is what keeps a request from
running twice.
"""

from __future__ import annotations

from collections.abc import Hashable

from gallery.leases.wrong_scans_the_queue import Queue as Written
from variants.leases.records import Fenced, Item, Lease  # noqa: F401 (the records, read by the suite)

FAILS = "lease_validation"


class Queue(Written):
    def _used(self, item_id: Hashable) -> bool:
        if not super()._used(item_id):
            return False
        return self._requests[item_id].status not in ("succeeded", "dead")  # the mistake
