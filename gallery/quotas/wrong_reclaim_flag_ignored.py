"""WRONG: reclaim=False never read: a guaranteed head reclaims anyway.

A cluster run without preemption across tenants (reclaim=False, for
work that cannot be interrupted) still has its borrowers preempted.  With
reclaim off, borrowed GPUs come back only when the borrowers' jobs end
(rule 11).
"""

from __future__ import annotations

from gallery.quotas.wrong_rescans_every_job import Scheduler as Written
from gallery.quotas.wrong_rescans_every_job import _Account, _Ticket
from variants.quotas.records import Decision, Job, Tenant  # noqa: F401 (the records, read by the suite)

FAILS = "quota_reclaim"


class Scheduler(Written):
    def _may_reclaim(self, head: _Ticket, account: _Account) -> bool:
        return account.used + head.gpus <= account.quota  # the mistake: the flag never read
