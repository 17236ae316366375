"""WRONG: a tenant's own victims free GPUs in the cluster but not within the tenant's limit.

Preempting its own lower priorities is how a tenant at its limit makes
room: the GPUs they give back come off the tenant's usage too.  Counted
only as free GPUs, they never bring the tenant back within its limit, and
a higher priority at the limit can never start (rule 12).
"""

from __future__ import annotations

from gallery.quotas.wrong_rescans_every_job import Scheduler as Written
from gallery.quotas.wrong_rescans_every_job import _Account, _Ticket
from variants.quotas.records import Decision, Job, Tenant  # noqa: F401 (the records, read by the suite)

FAILS = "quota_priority"


class Scheduler(Written):
    def _fits(self, head: _Ticket, account: _Account, free: int, taken: list[_Ticket]) -> bool:
        back = sum(t.gpus for t in taken)
        after = account.used + head.gpus  # the mistake: its own victims not taken off its usage
        return head.gpus <= free + back and after <= self._most(account)
