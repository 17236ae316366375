"""WRONG: the concurrency limit counts reserved jobs as running.

A job holding credits is not holding a GPU: counted early, a reservation
keeps the account's head from running and the GPUs sit idle.  Only running
jobs count.
"""

from __future__ import annotations

from gallery.credits.right_scans_the_accounts import (  # noqa: F401 (its own records, read by the suite)
    Account,
    Balance,
    Config,
    Job,
)
from gallery.credits.right_scans_the_accounts import Scheduler as Written

FAILS = "credits_limits"


class Scheduler(Written):
    def running_in(self, account: Account) -> int:
        reserved = sum(
            1
            for e in self.entries.values()
            if e.job.account == account.name and e.state == "reserved"
        )
        return account.running + reserved  # the mistake
