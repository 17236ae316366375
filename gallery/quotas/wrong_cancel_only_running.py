"""WRONG: a queued job cannot be cancelled.

cancel() accepts only what finish() accepts, so a job the caller no
longer wants stays queued and runs later, holding GPUs for nothing.  A
queued or running job may be cancelled (rule 5).
"""

from __future__ import annotations

from collections.abc import Hashable

from gallery.quotas.wrong_rescans_every_job import Scheduler as Written
from variants.quotas.records import Decision, Job, Tenant  # noqa: F401 (the records, read by the suite)

FAILS = "quota_validation"


class Scheduler(Written):
    def cancel(self, job_id: Hashable, *, now: int) -> None:
        self._end(job_id, now, ("running",), "cancelled")  # the mistake: queued not allowed
