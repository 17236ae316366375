"""WRONG: a reservation's expiry matched by its job, so a released and renewed one expires early.

Reserved for 5 ticks, released, reserved again for 100: when the first
reservation's time comes, the expiry finds its job reserved, and releases
the new reservation in its place.  Number each reservation, and release
only the reservation that expiry belongs to.
"""

from __future__ import annotations

import heapq

from gallery.credits.right_scans_the_accounts import (  # noqa: F401 (its own records)
    Account,
    Balance,
    Config,
    Entry,
    Job,
)
from gallery.credits.right_scans_the_accounts import Scheduler as Written

FAILS = "credits_reservations"


class Scheduler(Written):
    def expire(self, now: int) -> None:
        while self.expiries and self.expiries[0][0] <= now:
            _, _, job_id = heapq.heappop(self.expiries)
            entry = self.entries[job_id]
            if entry.state == "reserved":  # the mistake: whichever reservation it holds
                self.unhold(entry)
