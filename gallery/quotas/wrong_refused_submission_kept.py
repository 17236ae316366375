"""WRONG: a refused submission recorded before it is refused, so its id is taken for good.

A job of 0 GPUs is refused, but its ticket was stored first: `state(id)`
says "queued", and a valid job with the same id is now a duplicate.  An
operation that raises changes nothing: check everything, then record (rule
6).
"""

from __future__ import annotations

from gallery.quotas.wrong_rescans_every_job import Scheduler as Written
from gallery.quotas.wrong_rescans_every_job import _Ticket
from variants.quotas.records import Decision, Job, Tenant  # noqa: F401 (the records, read by the suite)

FAILS = "quota_validation"


class Scheduler(Written):
    def submit(self, job: Job, *, now: int) -> None:
        self._check_now(now)
        account = self._account(job.tenant)
        if self._used_before(job.id):
            raise ValueError(f"job id {job.id!r} used before")
        self._tickets[job.id] = _Ticket(job, self._serial)  # the mistake: before the checks
        self._serial += 1
        self._check_job(job, account)
        self._now = now
