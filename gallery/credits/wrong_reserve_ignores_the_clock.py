"""WRONG: `reserve` neither checks nor records its `now`.

`reserve(job, now=-1, ...)` after `schedule(now=0)` is accepted, though time
went back; and after `reserve(job, now=30, ...)` a `schedule(now=27)` is
accepted too, as if 30 had never been seen.  The time is the `now` of
`reserve` and `schedule` alike: one earlier than a `now` already passed is a
ValueError (rule 15), and a reservation's `now` counts as passed.
"""

from __future__ import annotations

import heapq
from collections.abc import Hashable

from gallery.credits.right_scans_the_accounts import (  # noqa: F401 (its own records)
    Account,
    Balance,
    Config,
    Entry,
    Job,
)
from gallery.credits.right_scans_the_accounts import Scheduler as Written

FAILS = "credits_errors"


class Scheduler(Written):
    def reserve(self, job_id: Hashable, *, now: int, ttl: int) -> None:
        entry = self.entry(job_id)
        account = self.accounts[entry.job.account]
        if entry.state != "queued" or ttl <= 0:  # the mistake: no self.late(now)
            raise ValueError(f"cannot reserve {job_id!r}")
        if entry.job.cost > account.available:
            raise ValueError(f"{account.name} cannot pay for {job_id!r}")
        # the mistake: self.clock = now is missing, so a later schedule may go back before it
        self.hold(account, entry)
        self.reservations += 1
        entry.state, entry.reservation = "reserved", self.reservations
        heapq.heappush(self.expiries, (now + ttl, entry.reservation, job_id))
