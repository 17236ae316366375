"""WRONG: a head that fits neither way preempts its own lower priorities and reclaims, at once.

Counting its own lower priorities as given back, the head looks within
its quota, and so takes borrowed GPUs from other tenants as well: its
tenant gives up work and takes others' in one decision, the case Kueue's
users find most surprising.  A head uses reclaim or its own lower
priorities, never both; one that needs both waits (rules 12 and 13).
"""

from __future__ import annotations

from collections.abc import Hashable

from gallery.quotas.wrong_rescans_every_job import Plan, _Account, _Ticket
from gallery.quotas.wrong_rescans_every_job import Scheduler as Written
from variants.quotas.records import Decision, Job, Tenant  # noqa: F401 (the records, read by the suite)

FAILS = "quota_priority"


class Scheduler(Written):
    def _plan(
        self, head: _Ticket, account: _Account, now: int, fresh: set[Hashable]
    ) -> Plan | None:
        plan = super()._plan(head, account, now, fresh)
        if plan is not None or not self._reclaim or not self._may_stand(head, account):
            return plan
        own = self._lower_pool(head, account, now, fresh)
        if account.used - sum(t.gpus for t in own) + head.gpus > account.quota:
            return None
        others = sorted(
            (
                t
                for t in self._tickets.values()
                if t.job.tenant != account.name
                and self._movable(t, now, fresh)
                and self._by_name[t.job.tenant].used > self._by_name[t.job.tenant].quota
            ),
            key=self._victim_rank,
        )
        free = self._free()
        # the mistake: its own lower priorities, then what others borrowed, in one plan
        return self._take(own + others, lambda taken: self._fits(head, account, free, taken))
