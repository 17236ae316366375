"""WRONG: a head that would borrow also reclaims from other tenants.

Reclaim is for a tenant taking back its guarantee; a head that takes its
tenant over its quota has no guarantee to take back.  Letting it preempt
other borrowers turns borrowing into a fight: two tenants over their quota
evict each other in turn.  A borrower starts on free GPUs only (rule 10).
"""

from __future__ import annotations

from gallery.quotas.wrong_rescans_every_job import Scheduler as Written
from gallery.quotas.wrong_rescans_every_job import _Account, _Ticket
from variants.quotas.records import Decision, Job, Tenant  # noqa: F401 (the records, read by the suite)

FAILS = "quota_order"


class Scheduler(Written):
    def _may_reclaim(self, head: _Ticket, account: _Account) -> bool:
        return self._reclaim  # the mistake: any head, not one within its tenant's quota
