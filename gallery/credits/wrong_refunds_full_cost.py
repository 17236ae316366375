"""WRONG: a failed or cancelled job gets its whole cost back.

What it used was used: the GPU time is gone.  Refunding the full cost lets an
account run for free by failing its jobs at the end; refund cost - used.
"""

from __future__ import annotations

from gallery.credits.right_scans_the_accounts import (  # noqa: F401 (its own records, read by the suite)
    Account,
    Balance,
    Config,
    Entry,
    Job,
)
from gallery.credits.right_scans_the_accounts import Scheduler as Written

FAILS = "credits_refunds"


class Scheduler(Written):
    def refund(self, account: Account, entry: Entry, used: int) -> None:
        account.running -= 1
        self.active -= 1
        account.reserved -= entry.job.cost
        account.available += entry.job.cost  # the mistake: used is never spent
