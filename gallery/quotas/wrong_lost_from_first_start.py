"""WRONG: a job's start is recorded once: a job started again still counts from its first start.

The start is set only when there is none yet, so after a preemption and a
restart the job's lost work is counted from its first start (work lost
once is lost again), and it ranks as an old job among the candidates.
Every start is its latest start (rule 14).
"""

from __future__ import annotations

from gallery.quotas.wrong_rescans_every_job import Scheduler as Written
from gallery.quotas.wrong_rescans_every_job import _Ticket
from variants.quotas.records import Decision, Job, Tenant  # noqa: F401 (the records, read by the suite)

FAILS = "quota_preempted"


class Scheduler(Written):
    def _start(self, ticket: _Ticket, now: int) -> None:
        ticket.status = "running"
        if ticket.since is None:  # the mistake: a restart keeps the first start
            ticket.since = now
        self._by_name[ticket.job.tenant].used += ticket.gpus
