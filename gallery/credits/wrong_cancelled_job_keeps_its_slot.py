"""WRONG: a running job cancelled releases its credits but not its slot.

`cancel(job, used)` of a running job settles its credits as `finish` would,
but the count of running jobs is not lowered: the slot stays taken by a job
that has ended, and with one slot nothing ever starts again.
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

FAILS = "credits_refunds"


class Scheduler(Written):
    def cancel(self, job_id: Hashable, used: int = 0) -> None:
        entry = self.entry(job_id)
        running = entry.state == "running"
        super().cancel(job_id, used)
        if running:  # the mistake: the slot is counted as taken still
            self.accounts[entry.job.account].running += 1
            self.active += 1
