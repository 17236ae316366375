"""WRONG: a job's checkpoint interval checked after the job is queued.

The GPUs and the tenant are checked, the job is queued, and then a
checkpoint interval of 0 is refused: the caller sees ValueError, but the job
waits in its tenant's queue all the same, and will start.  An operation that
raises changes nothing: every check before the first change (rule 6).
"""

from __future__ import annotations

from gallery.quotas.wrong_rescans_every_job import Scheduler as Written
from variants.quotas.records import Decision, Job, Tenant  # noqa: F401 (the records, read by the suite)

FAILS = "quota_validation"


class Scheduler(Written):
    def submit(self, job: Job, *, now: int) -> None:
        every = job.checkpoint_every
        if every is None or (self._is_int(every) and every >= 1):
            super().submit(job, now=now)
            return
        super().submit(job._replace(checkpoint_every=None), now=now)  # the mistake: queued,
        raise ValueError("bad checkpoint interval")  # and only then refused
