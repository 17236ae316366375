"""WRONG: finish() and cancel() mark the job ended before checking it may end.

The ValueError comes, but a queued job finished, or a finished one is now
cancelled: the caller cannot tell what state the scheduler is in.  Check
everything, then change (rule 6).
"""

from __future__ import annotations

from collections.abc import Hashable

from gallery.quotas.wrong_rescans_every_job import Scheduler as Written
from variants.quotas.records import Decision, Job, Tenant  # noqa: F401 (the records, read by the suite)

FAILS = "quota_validation"


class Scheduler(Written):
    def _end(self, job_id: Hashable, now: int, allowed: tuple[str, ...], outcome: str) -> None:
        self._check_now(now)
        ticket = self._ticket(job_id)
        was, ticket.status = ticket.status, outcome  # the mistake: changed before the check
        if was not in allowed:
            raise ValueError(f"job {job_id!r} is {was}")
        self._now = now
        if was == "running":
            self._by_name[ticket.job.tenant].used -= ticket.gpus
