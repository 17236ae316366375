"""WRONG: an expiry releases its job whatever became of it, started and ended included.

A job reserved, then started from its reservation and finished, still has
an expiry waiting; when its time comes, "releasing" the job hands its cost
back to `available` a second time: credits appear from nowhere.  An expiry
acts only on the reservation it was made for.
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
            if entry.state != "cancelled":  # the mistake: any state but one
                account = self.accounts[entry.job.account]
                account.available += entry.job.cost
                account.reserved = max(0, account.reserved - entry.job.cost)
                if entry.state == "reserved":
                    entry.state = "queued"
