"""WRONG: the borrowing limit checked when a job is submitted, never when it starts.

Each job alone is within its tenant's limit, so each is accepted; but
started side by side they take the tenant past it, onto GPUs the operator
never agreed to lend.  A head fits only if its tenant's usage plus its GPUs
stays within the limit (rules 8 and 15).
"""

from __future__ import annotations

from gallery.quotas.wrong_rescans_every_job import Scheduler as Written
from gallery.quotas.wrong_rescans_every_job import _Account
from variants.quotas.records import Decision, Job, Tenant  # noqa: F401 (the records, read by the suite)

FAILS = "quota_order"


class Scheduler(Written):
    def _most(self, account: _Account) -> int:
        return self._capacity  # the mistake: any GPU free, the tenant's limit forgotten
