"""WRONG: a refused submission recorded before it is refused, so its id is taken for good.

A job of cost 0 is refused, but its entry was stored first: `state(id)`
says "queued", and a valid job with the same id is now a "duplicate".  An
operation that raises changes nothing: check everything, then record.
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
        if job.id in self.entries:
            raise ValueError(f"cannot submit {job}")
        entry = Entry(job, len(self.entries))
        self.entries[job.id] = entry  # the mistake: recorded before the cost is checked
        if type(job.cost) is not int or job.cost <= 0:
            raise ValueError(f"cannot submit {job}")
        heapq.heappush(account.queue, self.key(entry))
