"""WRONG: the next account chosen by its own virtual time, the scheduler's ignored until it starts.

An account that fell behind the scheduler (idle while others ran) is ranked
by its old, low time, so among accounts behind it the one idle longest wins,
though all of them stand at the scheduler's time and should tie, by opening
order.  Rank by `max(own, scheduler's)`.
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
        return (account.vtime, order)  # the mistake: its own time, not max with the scheduler's
