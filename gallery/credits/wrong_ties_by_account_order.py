"""WRONG: across accounts, a tie in priority goes to the account opened first.

Rule 10 breaks ties between accounts' heads by submission: the job submitted
first starts first, whichever account it is in.  Going by the order the
accounts were opened lets an old account's new job overtake a young
account's job that has waited longer.
"""

from __future__ import annotations

from fractions import Fraction

from gallery.credits.right_scans_the_accounts import (  # noqa: F401 (its own records, read by the suite)
    Account,
    Balance,
    Config,
    Entry,
    Job,
)
from gallery.credits.right_scans_the_accounts import Scheduler as Written

FAILS = "credits_order"


class Scheduler(Written):
    def rank(self, account: Account, head: Entry, order: int) -> tuple[Fraction | int, int]:
        if self.config.fair:
            return super().rank(account, head, order)
        return (-head.job.priority, order)  # the mistake: the account's order, not the job's
