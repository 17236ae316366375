"""WRONG: finish() accepts a queued job and ends it as finished.

finish() ends a running job; only cancel() may end one still queued, and
finishing a job in any other state is a ValueError (rule 5).  A job that
never ran cannot have finished: accepting it records work that was never
done, and hides the caller's mistake (a finish for the wrong id, or one
sent before the job was started).
"""

from __future__ import annotations

from collections.abc import Hashable

from gallery.quotas.wrong_rescans_every_job import Scheduler as Written
from variants.quotas.records import Decision, Job, Tenant  # noqa: F401 (the records, read by the suite)

FAILS = "quota_validation"


class Scheduler(Written):
    def finish(self, job_id: Hashable, *, now: int) -> None:
        self._end(job_id, now, ("queued", "running"), "finished")  # the mistake: queued allowed
