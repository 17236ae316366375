"""WRONG: a job that used its whole cost cannot end: `used` must be below the cost.

`0 <= used < cost` reads "it cannot use more than it paid" one too strictly:
a job that ran to the end of what it reserved used exactly its cost, and
its finish is refused, so it holds its slot and its credits for ever.
`used` runs from 0 to the cost, both included (rule 3).
"""

from __future__ import annotations

from collections.abc import Hashable

from gallery.credits.right_scans_the_accounts import (  # noqa: F401 (its own records, read by the suite)
    Account,
    Balance,
    Config,
    Entry,
    Job,
)
from gallery.credits.right_scans_the_accounts import Scheduler as Written

FAILS = "credits_refunds"


class Scheduler(Written):
    def end(self, job_id: Hashable, used: int, state: str) -> None:
        entry = self.entry(job_id)
        if entry.state != "running" or not 0 <= self.whole(used) < entry.job.cost:  # the mistake
            raise ValueError(f"cannot end {job_id!r} having used {used}")
        super().end(job_id, used, state)
