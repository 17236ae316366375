"""WRONG: each tenant's queue served first come, first served: the priority is never read.

A tenant's urgent job waits behind its own backlog of batch work, and can
only get ahead by preempting it once started.  Within a tenant, higher
priority first, then first submitted (rule 7).
"""

from __future__ import annotations

from gallery.quotas.wrong_rescans_every_job import Scheduler as Written
from gallery.quotas.wrong_rescans_every_job import _Ticket
from variants.quotas.records import Decision, Job, Tenant  # noqa: F401 (the records, read by the suite)

FAILS = "quota_order"


class Scheduler(Written):
    @staticmethod
    def _queue_rank(ticket: _Ticket) -> tuple[int, int]:
        return (0, ticket.serial)  # the mistake: no priority
