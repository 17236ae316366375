"""WRONG: cancelling a reserved job leaves its credits reserved.

The job is gone, its reservation is not: the credits are held for nobody,
for ever (or until an expiry nobody will reach, since the job is cancelled).
"""

from __future__ import annotations

from collections.abc import Hashable

from gallery.credits.right_scans_the_accounts import (  # noqa: F401 (its own records, read by the suite)
    Balance,
    Config,
    Job,
)
from gallery.credits.right_scans_the_accounts import Scheduler as Written

FAILS = "credits_reservations"


class Scheduler(Written):
    def cancel(self, job_id: Hashable, used: int = 0) -> None:
        entry = self.entry(job_id)
        if entry.state == "reserved" and used == 0:
            self.dequeue(entry)
            entry.state = "cancelled"  # the mistake: the credits stay reserved
            return
        super().cancel(job_id, used)
