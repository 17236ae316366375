"""WRONG: among candidates started together, the first submitted is preempted first.

Sorted ascending by submission, the victims are the jobs that have waited
longest for their turn, and the newest borrowers keep running.  The last
submitted goes first: the least invested (rule 11).
"""

from __future__ import annotations

from gallery.quotas.wrong_rescans_every_job import Scheduler as Written
from gallery.quotas.wrong_rescans_every_job import _Ticket
from variants.quotas.records import Decision, Job, Tenant  # noqa: F401 (the records, read by the suite)

FAILS = "quota_reclaim"


class Scheduler(Written):
    def _victim_rank(self, ticket: _Ticket) -> tuple[int, int, int]:
        return (ticket.job.priority, -ticket.started, ticket.serial)  # the mistake: oldest
