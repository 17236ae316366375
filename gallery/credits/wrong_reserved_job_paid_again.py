"""WRONG: a reserved job paid for again when it starts.

The start treats a reserved job as a queued one: it must be payable from
`available` and its cost moves there to `reserved` a second time.  The
account pays twice for one job (the second hold is never refunded), and a
job whose account holds exactly its reservation never starts.  A reserved
job starts from its reservation: its credits are already held (rules 3
and 6).
"""

from __future__ import annotations

from collections.abc import Hashable
from fractions import Fraction

from gallery.credits.right_scans_the_accounts import (  # noqa: F401 (its own records)
    Account,
    Balance,
    Config,
    Entry,
    Job,
)
from gallery.credits.right_scans_the_accounts import Scheduler as Written

FAILS = "credits_reservations"


class Scheduler(Written):
    def eligible(self, account: Account, head: Entry) -> bool:
        if account.limit is not None and self.running_in(account) >= account.limit:
            return False
        return head.job.cost <= account.available  # the mistake: its reservation not counted

    def start(self, account: Account, head: Entry) -> Hashable:
        self.dequeue(head)
        self.hold(account, head)  # the mistake: held again, reserved or not
        head.state = "running"
        account.running += 1
        self.active += 1
        if self.config.fair:
            self.vtime = max(account.vtime, self.vtime)
            account.vtime = self.vtime + Fraction(head.job.cost, account.weight)
        return head.job.id
