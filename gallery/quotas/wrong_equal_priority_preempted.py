"""WRONG: within a tenant, a head preempts jobs of equal priority too.

Two jobs of one priority then preempt each other in turn, each start
throwing away the other's work: thrashing within the tenant.  Only
strictly lower priorities give way (rules 12 and 13).
"""

from __future__ import annotations

from collections.abc import Hashable

from gallery.quotas.wrong_rescans_every_job import Scheduler as Written
from gallery.quotas.wrong_rescans_every_job import _Account, _Ticket
from variants.quotas.records import Decision, Job, Tenant  # noqa: F401 (the records, read by the suite)

FAILS = "quota_priority"


class Scheduler(Written):
    def _lower_pool(
        self, head: _Ticket, account: _Account, now: int, fresh: set[Hashable]
    ) -> list[_Ticket]:
        pool = [
            t
            for t in self._tickets.values()
            if t.job.tenant == account.name
            and t.job.priority <= head.job.priority  # the mistake: <= for <
            and self._movable(t, now, fresh)
        ]
        pool.sort(key=self._victim_rank)
        return pool
