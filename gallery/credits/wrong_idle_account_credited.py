"""WRONG: an account's virtual time never catches up with the scheduler's.

An account idle for an hour comes back "owed" an hour of service and takes
every slot until it has caught up.  Fair share is among accounts that are
waiting: a returning account starts from the scheduler's virtual time.
"""

from __future__ import annotations

from collections.abc import Hashable
from fractions import Fraction

from gallery.credits.right_scans_the_accounts import (  # noqa: F401 (its own records, read by the suite)
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
        if self.config.fair:
            return (account.vtime, order)  # the mistake: no max with the scheduler's
        return super().rank(account, head, order)

    def start(self, account: Account, head: Entry) -> Hashable:
        if not self.config.fair:
            return super().start(account, head)
        self.dequeue(head)
        if head.state == "queued":
            self.hold(account, head)
        head.state = "running"
        account.running += 1
        self.active += 1
        account.vtime += Fraction(head.job.cost, account.weight)
        return head.job.id
