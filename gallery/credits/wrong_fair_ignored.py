"""WRONG: Config(fair=True) is ignored: priority decides across accounts.

One account submitting a stream of high-priority jobs takes every slot; the
others starve for as long as the stream lasts.  Fair share gives each
account its weighted turn.
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

FAILS = "credits_fairness"


class Scheduler(Written):
    def rank(self, account: Account, head: Entry, order: int) -> tuple[Fraction | int, int]:
        return (-head.job.priority, head.seq)  # the mistake: never fair
