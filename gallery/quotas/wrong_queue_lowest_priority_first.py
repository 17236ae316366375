"""WRONG: each tenant's queue served lowest priority first: the priority not negated.

A min-heap pops the smallest key, so a key of `(priority, submission)`
serves the least urgent job first: a tenant's urgent job waits behind all
its batch work, and is the first preempted when it runs.  Within a tenant,
higher priority first, then first submitted (rule 7): `(-priority, ...)`.
"""

from __future__ import annotations

from gallery.quotas.wrong_rescans_every_job import Scheduler as Written
from gallery.quotas.wrong_rescans_every_job import _Ticket
from variants.quotas.records import Decision, Job, Tenant  # noqa: F401 (the records, read by the suite)

FAILS = "quota_order"


class Scheduler(Written):
    @staticmethod
    def _queue_rank(ticket: _Ticket) -> tuple[int, int]:
        return (ticket.job.priority, ticket.serial)  # the mistake: the lowest first
