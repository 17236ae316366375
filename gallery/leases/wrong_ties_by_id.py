"""WRONG: requests ready at the same tick are claimed in the order of their ids.

A heap keyed by (ready at, id) looks right whenever the ids happen to be
submitted in increasing order, as they are in most examples; but an id is a
name, not an order.  Rule 4 breaks ties by submission: "c" submitted before
"a", both ready at 0, goes first.  Key the heap by (ready at, submission
number), a counter kept by the queue.
"""

from __future__ import annotations

from typing import Any

from gallery.leases.wrong_scans_the_queue import Entry
from gallery.leases.wrong_scans_the_queue import Queue as Written
from variants.leases.records import Fenced, Item, Lease  # noqa: F401 (the records, read by the suite)

FAILS = "lease_claims"


class Queue(Written):
    @staticmethod
    def _ready_order(entry: Entry) -> tuple[int, Any]:
        ready_at, _, item_id = entry
        return ready_at, item_id  # the mistake: ties by id, not by submission
