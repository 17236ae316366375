"""WRONG: a job that may not be preempted must fit its quota beside all its tenant's jobs.

Its tenant's preemptible jobs are counted too, so a tenant that borrows
with preemptible work cannot start a job that may not be preempted even
within its quota: the GPUs a preemptible job holds can always be given
back, and only jobs that may not be preempted need to stay within the
quota.  Its tenant's jobs that may not be preempted, plus its GPUs, within
the quota (rule 8).
"""

from __future__ import annotations

from gallery.quotas.wrong_rescans_every_job import Scheduler as Written
from gallery.quotas.wrong_rescans_every_job import _Account, _Ticket
from variants.quotas.records import Decision, Job, Tenant  # noqa: F401 (the records, read by the suite)

FAILS = "quota_order"


class Scheduler(Written):
    def _may_stand(self, head: _Ticket, account: _Account) -> bool:
        # the mistake: every running job of the tenant counted, preemptible ones too
        return head.job.preemptible or account.used + head.gpus <= account.quota
