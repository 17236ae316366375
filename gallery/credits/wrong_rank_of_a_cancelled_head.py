"""WRONG: an account ranked by the best priority it was ever given, not by its head's.

Each account remembers its top priority as jobs arrive; when that job is
cancelled (or ends), the account still ranks as if it had it, and its next,
lower job jumps ahead of another account's better one.  Rank by the head
there is now.
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

FAILS = "credits_order"


class Scheduler(Written):
    def submit(self, job: Job) -> None:
        super().submit(job)
        best = getattr(self, "best", {})
        best[job.account] = max(best.get(job.account, job.priority), job.priority)
        self.best = best

    def rank(self, account: Account, head: Entry, order: int) -> tuple[Fraction | int, int]:
        if self.config.fair:
            return super().rank(account, head, order)
        return (-self.best[account.name], head.seq)  # the mistake: a priority seen once
