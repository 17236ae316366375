"""WRONG: a claim does not expire the leases that are due first.

Claiming first expires the leases that are due (rule 4): a worker that
died leaves its requests leased, and without an expire() call in between
nobody would ever get them back.  Here their requests stay leased, and are
not claimable, until expire() is called.
"""

from __future__ import annotations

from gallery.leases.wrong_scans_the_queue import Queue as Written
from variants.leases.records import Fenced, Item, Lease  # noqa: F401 (the records, read by the suite)

FAILS = "lease_claims"


class Queue(Written):
    def _before_claim(self, now: int) -> None:
        pass  # the mistake: the due leases are not expired
