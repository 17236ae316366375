"""WRONG: a reservation refused for its cost has already moved the clock.

`reserve` records its `now`, then finds the account cannot pay and raises:
the caller's request is refused, but its time has passed, so a `schedule`
at an earlier time, on time a moment ago, is now refused as going back.  An
operation that raises changes nothing, the clock included: check, then
record (rules 14 and 15).
"""

from __future__ import annotations

from collections.abc import Hashable

from gallery.credits.right_scans_the_accounts import (  # noqa: F401 (its own records, read by the suite)
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
        valid = entry.state == "queued" and ttl > 0 and not self.late(now)
        if valid and entry.job.cost > account.available:
            self.clock = now  # the mistake: the time kept before the refusal
            raise ValueError(f"{account.name} cannot pay for {job_id!r}")
        super().reserve(job_id, now=now, ttl=ttl)
