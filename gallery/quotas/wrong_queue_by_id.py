"""WRONG: a tenant's queue ordered by job id, not by submission.

A heap keyed by (priority, id) looks right whenever ids are submitted in
increasing order, as they are in most examples; but an id is a name, not an
order.  Submitted a9, a10, a1, the tenant must start a9 first (rule 7: higher
priority, then first submitted); by id as text a1 goes first.  Key the queue
by a submission counter kept by the scheduler.
"""

from __future__ import annotations

from typing import Any

from gallery.quotas.wrong_rescans_every_job import Scheduler as Written
from gallery.quotas.wrong_rescans_every_job import _Ticket
from variants.quotas.records import Decision, Job, Tenant  # noqa: F401 (the records, read by the suite)

FAILS = "quota_order"


class Scheduler(Written):
    @staticmethod
    def _queue_rank(ticket: _Ticket) -> tuple[int, Any]:
        return (-ticket.job.priority, str(ticket.job.id))  # the mistake: by id, as text
