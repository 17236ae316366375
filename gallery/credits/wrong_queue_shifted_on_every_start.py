"""WRONG (in cost only): each account's queue a sorted list, its head taken with `pop(0)`.

The order is right and each decision looks only at the front; but popping
the front of a Python list shifts every element after it, in C: each start
costs O(waiting jobs), where no count of Python lines can see it.  Take the
head of a heap (or keep the list reversed and pop its end).
"""

from __future__ import annotations

import bisect

from gallery.credits.right_scans_the_accounts import (  # noqa: F401 (its own records)
    Account,
    Balance,
    Config,
    Entry,
    Job,
)
from gallery.credits.right_scans_the_accounts import Scheduler as Written

FAILS = "credits_scaling"


class Scheduler(Written):
    def submit(self, job: Job) -> None:
        account = self.account(job.account)
        if job.id in self.entries or type(job.cost) is not int or job.cost <= 0:
            raise ValueError(f"cannot submit {job}")
        entry = Entry(job, len(self.entries))
        self.entries[job.id] = entry
        bisect.insort(account.queue, self.key(entry))  # a sorted list, not a heap

    def head(self, account: Account) -> Entry | None:
        while account.queue:
            entry = self.entries[account.queue[0][2]]
            if entry.state in ("queued", "reserved"):
                return entry
            account.queue.pop(0)  # the mistake: shifts every waiting job, each time
        return None

    def dequeue(self, entry: Entry) -> None:
        queue = self.accounts[entry.job.account].queue
        index = bisect.bisect_left(queue, self.key(entry))
        if index < len(queue) and queue[index][2] == entry.job.id:
            queue.pop(index)
