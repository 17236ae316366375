"""WRONG: a reserved job cancelled with `used` charged for what it used, though it never ran.

`cancel(job, used)` with a nonzero `used` makes sense only for a running
job; a reserved one held its credits but never started, so it used nothing.
Charging it spends credits on work that was never done; the contract
refuses it.
"""

from __future__ import annotations

from collections.abc import Hashable

from gallery.credits.right_scans_the_accounts import (  # noqa: F401 (its own records)
    Account,
    Balance,
    Config,
    Entry,
    Job,
)
from gallery.credits.right_scans_the_accounts import Scheduler as Written

FAILS = "credits_refunds"


class Scheduler(Written):
    def cancel(self, job_id: Hashable, used: int = 0) -> None:
        entry = self.entry(job_id)
        if entry.state == "reserved" and 0 < used <= entry.job.cost:  # the mistake
            account = self.accounts[entry.job.account]
            account.reserved -= entry.job.cost
            account.spent += used
            account.available += entry.job.cost - used
            self.dequeue(entry)
            entry.state = "cancelled"
            return
        super().cancel(job_id, used)
