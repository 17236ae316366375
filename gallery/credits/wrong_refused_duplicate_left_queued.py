"""WRONG: a job queued before its id is checked, so a refused duplicate still runs.

`submit` pushes the job into its account's queue, then finds the id taken
and raises: the caller is told no, yet the queue holds the duplicate, and a
later `schedule` runs the job by the refused duplicate's priority.  Check,
then change.
"""

from __future__ import annotations

import heapq

from gallery.credits.right_scans_the_accounts import (  # noqa: F401 (its own records)
    Account,
    Balance,
    Config,
    Entry,
    Job,
)
from gallery.credits.right_scans_the_accounts import Scheduler as Written

FAILS = "credits_errors"


class Scheduler(Written):
    def submit(self, job: Job) -> None:
        account = self.account(job.account)
        entry = Entry(job, len(self.entries))
        heapq.heappush(account.queue, self.key(entry))  # the mistake: before the checks
        if job.id in self.entries or type(job.cost) is not int or job.cost <= 0:
            raise ValueError(f"cannot submit {job}")
        self.entries[job.id] = entry
