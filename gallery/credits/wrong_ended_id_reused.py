"""WRONG: the id of a job that has ended accepted for a new job.

Only waiting and running jobs are looked at for a duplicate, so a finished
job's id can be submitted again: `state(id)` and every record keyed by it
now mean two jobs.  A job id is used once in a scheduler's life.
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
        old = self.entries.get(job.id)
        taken = old is not None and old.state in ("queued", "reserved", "running")  # the mistake
        if taken or type(job.cost) is not int or job.cost <= 0:
            raise ValueError(f"cannot submit {job}")
        entry = Entry(job, len(self.entries))
        self.entries[job.id] = entry
        heapq.heappush(account.queue, self.key(entry))
