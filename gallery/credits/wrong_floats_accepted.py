"""WRONG: a float accepted as credits, and kept.

`deposit("a", 10.5)` goes through: the balance holds 10.5 credits, and every
sum after it is a float, exact no longer (at 10**18 a float cannot tell 1
credit from none).  Credits are ints: a float (or a bool) is a ValueError.
"""

from __future__ import annotations

from gallery.credits.right_scans_the_accounts import (  # noqa: F401 (its own records)
    Account,
    Balance,
    Config,
    Entry,
    Job,
)
from gallery.credits.right_scans_the_accounts import Scheduler as Written

FAILS = "credits_conservation"


class Scheduler(Written):
    def deposit(self, name: str, amount: int) -> None:
        account = self.account(name)
        if amount <= 0:  # the mistake: no check that it is an int
            raise ValueError("deposits are positive")
        account.available += amount
        account.deposited += amount
