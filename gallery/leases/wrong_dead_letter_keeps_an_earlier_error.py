"""WRONG: a dead letter keeps an earlier attempt's error, not its last.

A dead letter carries the error of its last attempt (rule 9): that is what
an operator reads to learn why it died.  Keeping the first error recorded
(say "lease expired", when the last attempt failed with "oom") tells them
the wrong story.
"""

from __future__ import annotations

from gallery.leases.wrong_scans_the_queue import Queue as Written
from gallery.leases.wrong_scans_the_queue import _Request
from variants.leases.records import Fenced, Item, Lease  # noqa: F401 (the records, read by the suite)

FAILS = "lease_fencing"


class Queue(Written):
    def _bury(self, request: _Request, error: str) -> None:
        request.status = "dead"
        request.error = request.error or error  # the mistake: the first error kept
