"""WRONG: a running job cancelled by its owner counted as lost work.

Lost work measures what preemption costs: GPU time thrown away because the
scheduler took a job's GPUs.  A cancel is the owner giving the job up; the
scheduler took nothing.  Counting it inflates the preemption cost the
operator reads and tunes min_run by (rule 14).
"""

from __future__ import annotations

from collections.abc import Hashable

from gallery.quotas.wrong_rescans_every_job import Scheduler as Written
from variants.quotas.records import Decision, Job, Tenant  # noqa: F401 (the records, read by the suite)

FAILS = "quota_preempted"


class Scheduler(Written):
    def cancel(self, job_id: Hashable, *, now: int) -> None:
        ticket = self._ticket(job_id)
        was_running = ticket.status == "running"
        super().cancel(job_id, now=now)
        if was_running:  # the mistake: a cancel charged as a preemption
            self._by_name[ticket.job.tenant].lost += self._lost_work(ticket, now)
