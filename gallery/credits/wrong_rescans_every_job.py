"""WRONG: each decision looks at every waiting job to find each account's next.

Correct, and O(n) per decision: with a million jobs queued, every start
reads all of them.  Keep each account's jobs in order (a heap, a sorted
list) and look only at the front.
"""

from __future__ import annotations

from gallery.credits.right_scans_the_accounts import (  # noqa: F401 (its own records, read by the suite)
    Account,
    Balance,
    Config,
    Entry,
    Job,
)
from gallery.credits.right_scans_the_accounts import Scheduler as Written

FAILS = "credits_scaling"


class Scheduler(Written):
    def head(self, account: Account) -> Entry | None:
        waiting = [
            e
            for e in self.entries.values()  # the mistake: every job, every time
            if e.job.account == account.name and e.state in ("queued", "reserved")
        ]
        return min(waiting, key=lambda e: (-e.job.priority, e.seq), default=None)
