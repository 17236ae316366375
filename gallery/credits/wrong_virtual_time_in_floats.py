"""WRONG: virtual time kept in floats, so costs that differ by a credit can tie.

`cost / weight` as a float: at costs near 10**17, 10**17 / 3 and
(10**17 + 1) / 3 are the same float, and the tie goes to the account opened
first, though the other is behind.  Keep virtual time as a Fraction.
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

FAILS = "credits_fairness"


class Scheduler(Written):
    def start(self, account: Account, head: Entry) -> Hashable:
        started = super().start(account, head)
        if self.config.fair:
            account.vtime = float(self.vtime) + head.job.cost / account.weight  # type: ignore[assignment]  # the mistake
        return started
