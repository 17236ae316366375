"""WRONG: credits kept as floats.

Credits are money: a float has 53 bits, and at 10**18 credits a deposit of 1
is rounded away; balances stop adding up.  Integers, always.
"""

from __future__ import annotations

from gallery.credits.right_scans_the_accounts import (  # noqa: F401 (its own records, read by the suite)
    Balance,
    Config,
    Job,
)
from gallery.credits.right_scans_the_accounts import Scheduler as Written

FAILS = "credits_conservation"


class Scheduler(Written):
    def deposit(self, name: str, amount: int) -> None:
        account = self.account(name)
        if amount <= 0:
            raise ValueError("deposits are positive")
        account.available = float(account.available) + amount  # type: ignore[assignment]  # the mistake
        account.deposited = float(account.deposited) + amount  # type: ignore[assignment]
