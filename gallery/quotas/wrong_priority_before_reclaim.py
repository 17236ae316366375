"""WRONG: a head within its quota preempts its own lower priorities before reclaiming.

The tenant's GPUs are taken by other tenants beyond their quota, yet it
throws away its own work to make room, and the borrowers keep what they
borrowed.  A head within its quota reclaims first; only if reclaim cannot
make room do its own lower priorities give way (rules 11 and 12).
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
        if not self._may_stand(head, account):
            return None
        free = self._free()

        def fits(taken: list[_Ticket]) -> bool:
            return self._fits(head, account, free, taken)

        if fits([]):
            return []
        plan = self._take(self._lower_pool(head, account, now, fresh), fits)  # the mistake: first
        if plan is not None or not self._may_reclaim(head, account):
            return plan
        return self._reclaim_plan(head, account, now, fresh, fits)
