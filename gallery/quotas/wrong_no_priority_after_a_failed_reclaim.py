"""WRONG: a failed reclaim is final: the tenant's own lower priorities never give way.

Reclaim comes first, rightly; but when the other tenants' borrowed GPUs are
not enough (they are not borrowing, or their jobs are too young to move),
the tenant's own lower-priority jobs must still give way to its high-priority
head (rule 12): returning the reclaim's "no" as the answer leaves an urgent
job behind the tenant's own batch work.
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
        if self._may_reclaim(head, account):  # the mistake: its answer is final
            return self._reclaim_plan(head, account, now, fresh, fits)
        return self._take(self._lower_pool(head, account, now, fresh), fits)
