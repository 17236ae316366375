"""WRONG: `max_running` checked with `>`: an account runs one job too many.

The check `running > max_running` lets a job start while the account
already runs `max_running` of them, so an account limited to 2 runs 3.  At
most `max_running` of one account's jobs run at once (rule 13): a job may
start only while fewer than that run, `running < max_running`.
"""

from __future__ import annotations

from gallery.credits.right_scans_the_accounts import (  # noqa: F401 (its own records)
    Account,
    Balance,
    Config,
    Entry,
    Job,
)
from gallery.credits.right_scans_the_accounts import Scheduler as Written

FAILS = "credits_limits"


class Scheduler(Written):
    def eligible(self, account: Account, head: Entry) -> bool:
        if account.limit is not None and self.running_in(account) > account.limit:  # the mistake
            return False
        return head.state == "reserved" or head.job.cost <= account.available
