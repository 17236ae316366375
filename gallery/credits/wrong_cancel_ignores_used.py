"""WRONG: a waiting job cancelled with a nonzero `used`, the `used` ignored.

`cancel(job, used=5)` of a queued or reserved job goes through as if it
were `cancel(job)`: the job is cancelled, its reservation released, nothing
spent.  But a job that never ran used nothing, so a `used` other than 0
says the caller has the wrong job or the wrong state in mind: the contract
refuses it with a ValueError, and the job stays as it was (rules 5 and 14).
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
        if entry.state == "running":
            self.end(job_id, used, "cancelled")
        elif entry.state in ("queued", "reserved"):
            self.whole(used)  # the mistake: an int, but not checked to be 0
            if entry.state == "reserved":
                self.unhold(entry)
            self.dequeue(entry)
            entry.state = "cancelled"
        else:
            raise ValueError(f"cannot cancel {job_id!r}")
