"""WRONG: the id of a job that has ended accepted for a new job.

Only queued and running jobs are looked at for a duplicate, so a finished
job's id can be submitted again: `state(id)` and every record keyed by it
now mean two jobs.  A job id is used once in a scheduler's life (rule 4).
"""

from __future__ import annotations

from collections.abc import Hashable

from gallery.quotas.wrong_rescans_every_job import Scheduler as Written
from variants.quotas.records import Decision, Job, Tenant  # noqa: F401 (the records, read by the suite)

FAILS = "quota_validation"


class Scheduler(Written):
    def _used_before(self, job_id: Hashable) -> bool:
        # the mistake: only jobs that are still queued or running
        return super()._used_before(job_id) and self._tickets[job_id].status in (
            "queued",
            "running",
        )
