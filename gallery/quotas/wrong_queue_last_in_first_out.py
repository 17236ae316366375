"""WRONG: within a tenant, jobs of equal priority served last submitted first.

A heap keyed (-priority, -submission) pops the newest of a priority level
first: under steady submissions the oldest job of a level never reaches the
head.  Equal priorities are served in the order they were submitted
(rule 7): (-priority, submission).
"""

from __future__ import annotations

from gallery.quotas.wrong_rescans_every_job import Scheduler as Written
from gallery.quotas.wrong_rescans_every_job import _Ticket
from variants.quotas.records import Decision, Job, Tenant  # noqa: F401 (the records, read by the suite)

FAILS = "quota_order"


class Scheduler(Written):
    @staticmethod
    def _queue_rank(ticket: _Ticket) -> tuple[int, int]:
        return (-ticket.job.priority, -ticket.serial)  # the mistake: the newest first
