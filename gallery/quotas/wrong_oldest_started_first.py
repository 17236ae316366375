"""WRONG: among candidates of one priority, the earliest started is preempted first.

Preempting the job that has run longest throws away the most work (and,
without checkpoints, all of it) to free the same GPUs.  The most recently
started goes first: the least invested (rule 11).
"""

from __future__ import annotations

from gallery.quotas.wrong_rescans_every_job import Scheduler as Written
from gallery.quotas.wrong_rescans_every_job import _Ticket
from variants.quotas.records import Decision, Job, Tenant  # noqa: F401 (the records, read by the suite)

FAILS = "quota_reclaim"


class Scheduler(Written):
    def _victim_rank(self, ticket: _Ticket) -> tuple[int, int, int]:
        return (ticket.job.priority, ticket.started, -ticket.serial)  # the mistake: oldest
