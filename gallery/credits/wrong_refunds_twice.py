"""WRONG: a job that already ended can be ended again, and refunded again.

Failed, then cancelled: the unused credits come back twice and the account
has more than it deposited.  A job ends once; ending it again is an error.
"""

from __future__ import annotations

from collections.abc import Hashable

from gallery.credits.right_scans_the_accounts import (  # noqa: F401 (its own records, read by the suite)
    Balance,
    Config,
    Job,
)
from gallery.credits.right_scans_the_accounts import Scheduler as Written

FAILS = "credits_refunds"


class Scheduler(Written):
    def end(self, job_id: Hashable, used: int, state: str) -> None:
        entry = self.entry(job_id)
        if entry.state not in ("running", "finished", "failed", "cancelled"):  # the mistake
            raise ValueError(f"cannot end {job_id!r}")
        if not 0 <= used <= entry.job.cost:
            raise ValueError(f"cannot end {job_id!r} having used {used}")
        account = self.accounts[entry.job.account]
        account.available += entry.job.cost - used
        if entry.state == "running":
            account.reserved -= entry.job.cost
            account.spent += used
            account.running -= 1
            self.active -= 1
        entry.state = state

    def cancel(self, job_id: Hashable, used: int = 0) -> None:
        if self.entry(job_id).state in ("finished", "failed", "cancelled"):
            self.end(job_id, used, "cancelled")
            return
        super().cancel(job_id, used)
