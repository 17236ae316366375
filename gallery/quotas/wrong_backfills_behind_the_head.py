"""WRONG: when a tenant's head cannot start, a job behind it that fits starts instead.

Backfilling within a tenant looks efficient, but the small jobs behind a
large head take, one after another, the very GPUs the head waits for: the
large job starves.  Only the head may start; if it cannot, its tenant
starts nothing (rule 7).
"""

from __future__ import annotations

from collections.abc import Hashable

from gallery.quotas.wrong_rescans_every_job import Plan, _Account, _Ticket
from gallery.quotas.wrong_rescans_every_job import Scheduler as Written
from variants.quotas.records import Decision, Job, Tenant  # noqa: F401 (the records, read by the suite)

FAILS = "quota_order"


class Scheduler(Written):
    def _candidate(
        self,
        account: _Account,
        head: _Ticket,
        now: int,
        fresh: set[Hashable],
        evicted: set[Hashable],
    ) -> tuple[_Ticket, Plan] | None:
        queued = sorted(
            (
                t
                for t in self._tickets.values()
                if t.status == "queued" and t.job.tenant == account.name
            ),
            key=self._queue_rank,
        )
        for ticket in queued:  # the mistake: the first job that can start, not the head
            if ticket.job.id in evicted:
                continue
            plan = self._plan(ticket, account, now, fresh)
            if plan is not None:
                return ticket, plan
        return None
