"""WRONG: fair-share ties broken by account name, not by the order accounts were opened.

Two accounts at the same virtual time: the one whose name sorts first wins,
so renaming a tenant changes who runs.  The contract breaks ties by opening
order, a fact of the scheduler's history rather than of spelling.
"""

from __future__ import annotations

from fractions import Fraction

from gallery.credits.right_scans_the_accounts import (  # noqa: F401 (its own records)
    Account,
    Balance,
    Config,
    Entry,
    Job,
)
from gallery.credits.right_scans_the_accounts import Scheduler as Written

FAILS = "credits_fairness"


class Scheduler(Written):
    def rank(self, account: Account, head: Entry, order: int) -> tuple[Fraction | int, int]:
        if not self.config.fair:
            return super().rank(account, head, order)
        names = sorted(self.accounts)
        return (max(account.vtime, self.vtime), names.index(account.name))  # the mistake
