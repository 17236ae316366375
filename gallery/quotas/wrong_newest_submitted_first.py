"""WRONG: victims ordered by submission alone: the start time is never read.

The newest submitted is not the newest started: a job submitted early
that was preempted and started again has the least work invested, yet a
job submitted later, running for longer, goes before it.  The order is
lowest priority, then the most recently started, then the most recently
submitted (rule 11).
"""

from __future__ import annotations

from gallery.quotas.wrong_rescans_every_job import Scheduler as Written
from gallery.quotas.wrong_rescans_every_job import _Ticket
from variants.quotas.records import Decision, Job, Tenant  # noqa: F401 (the records, read by the suite)

FAILS = "quota_reclaim"


class Scheduler(Written):
    def _victim_rank(self, ticket: _Ticket) -> tuple[int, int, int]:
        return (ticket.job.priority, 0, -ticket.serial)  # the mistake: no start time
