"""WRONG: the ready requests are claimed in submission order, not by how long they have been ready.

A request sent back after a backoff or a release joins the queue when it is
ready again, behind those ready before it (rule 4: ready the longest first,
ties by submission).  By submission alone a retried request jumps ahead of
every request submitted after it, however long those have waited.
"""

from __future__ import annotations

from gallery.leases.wrong_scans_the_queue import Entry
from gallery.leases.wrong_scans_the_queue import Queue as Written
from variants.leases.records import Fenced, Item, Lease  # noqa: F401 (the records, read by the suite)

FAILS = "lease_claims"


class Queue(Written):
    @staticmethod
    def _ready_order(entry: Entry) -> tuple[int, int]:
        _, seq, _ = entry
        return 0, seq  # the mistake: when it became ready ignored
