"""WRONG: a job that may not be preempted is allowed to borrow.

Submitting checks that such a job fits its tenant's quota, but starting
checks only the limit: with its tenant's other jobs that may not be
preempted already holding part of its quota, it starts on borrowed GPUs
that no reclaim can ever take back, and the lender's guarantee is gone.
The tenant's jobs that may not be preempted stay within its quota (rule
8).
"""

from __future__ import annotations

from gallery.quotas.wrong_rescans_every_job import Scheduler as Written
from gallery.quotas.wrong_rescans_every_job import _Account, _Ticket
from variants.quotas.records import Decision, Job, Tenant  # noqa: F401 (the records, read by the suite)

FAILS = "quota_order"


class Scheduler(Written):
    def _may_stand(self, head: _Ticket, account: _Account) -> bool:
        return True  # the mistake: the quota never read for a job that may not be preempted
