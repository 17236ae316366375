"""WRONG: an attempt is counted when it fails, not when it is claimed.

Attempts are counted at the claim (rule 4): a request leased for the first
time has had one attempt, and a request that succeeds at its first try has
had one.  Counting at the failure shows a leased or succeeded request one
attempt short, and an attempt whose worker never reports is not counted
until its lease expires.
"""

from __future__ import annotations

from gallery.leases.wrong_scans_the_queue import Queue as Written
from gallery.leases.wrong_scans_the_queue import _Request
from variants.leases.records import Fenced, Item, Lease  # noqa: F401 (the records, read by the suite)

FAILS = "lease_validation"


class Queue(Written):
    def _count_claim(self, request: _Request) -> None:
        pass  # the mistake: not counted at the claim...

    def _count_failure(self, request: _Request) -> None:
        request.attempts += 1  # ...but when the attempt fails

    def _give_back(self, request: _Request) -> None:
        pass  # (so a release has nothing to give back)
