"""WRONG: a heap whose ties are broken by job id, not by submission order.

Jobs of equal priority go in the order their ids sort: "job-10" before
"job-9", and any id scheme that is not a clock reorders the queue.  Ties go
to the first submitted.
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

FAILS = "credits_order"


class Scheduler(Written):
    def key(self, entry: Entry) -> tuple[int, int, Hashable]:
        return (-entry.job.priority, 0, str(entry.job.id))  # the mistake

    def rank(self, account: Account, head: Entry, order: int) -> tuple[Fraction | int, int]:
        if self.config.fair:
            return super().rank(account, head, order)
        return (-head.job.priority, 0)  # then the account order
