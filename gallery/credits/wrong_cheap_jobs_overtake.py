"""WRONG: when an account cannot pay for its head, its cheaper jobs go instead.

Best effort within the account: the expensive, higher-priority job waits for
a balance that each cheap job spends first, and may never run.  Within an
account the order is strict: its head goes first, or nothing of it does.
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

FAILS = "credits_order"


class Scheduler(Written):
    def head(self, account: Account) -> Entry | None:
        for _, _, job_id in sorted(account.queue):  # the mistake: the first payable
            entry = self.entries[job_id]
            waiting = entry.state in ("queued", "reserved")
            if waiting and (entry.state == "reserved" or entry.job.cost <= account.available):
                return entry
        return super().head(account)
