"""WRONG: submit marks the job's id used before checking the job.

The job of 0 GPUs is refused and never queued, rightly, but its id is
already in the set of ids used: the same id, now with a valid job, is
refused as a duplicate.  An operation that raises changes nothing, its
bookkeeping included: check everything, then record (rule 6).
"""

from __future__ import annotations

from collections.abc import Hashable

from gallery.quotas.wrong_rescans_every_job import Scheduler as Written
from variants.quotas.records import Decision, Job, Tenant  # noqa: F401 (the records, read by the suite)

FAILS = "quota_validation"


class Scheduler(Written):
    used: set[Hashable]

    def submit(self, job: Job, *, now: int) -> None:
        if not hasattr(self, "used"):
            self.used = set()
        if job.id in self.used:
            raise ValueError(f"job id {job.id!r} used before")
        self.used.add(job.id)  # the mistake: before the job is checked
        super().submit(job, now=now)
