"""WRONG: finish() refunds first and checks `used` afterwards.

The ValueError comes, but the credits have moved: the caller cannot tell
what state the scheduler is in.  Check everything, then change.
"""

from __future__ import annotations

from collections.abc import Hashable

from gallery.credits.right_scans_the_accounts import (  # noqa: F401 (its own records, read by the suite)
    Balance,
    Config,
    Job,
)
from gallery.credits.right_scans_the_accounts import Scheduler as Written

FAILS = "credits_errors"


class Scheduler(Written):
    def end(self, job_id: Hashable, used: int, state: str) -> None:
        entry = self.entry(job_id)
        if entry.state != "running":
            raise ValueError(f"cannot end {job_id!r}")
        self.refund(self.accounts[entry.job.account], entry, min(used, entry.job.cost))
        if not 0 <= used <= entry.job.cost:  # the mistake: checked after the change
            raise ValueError(f"{job_id!r} cannot have used {used}")
        entry.state = state
