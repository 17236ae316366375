"""WRONG: a preempted job may start again in the call that preempted it.

With GPUs free again later in the call, the job just preempted starts
again at once: its work lost for nothing, and a decision that contradicts
itself.  A preempted job waits for the next call, and if it is its
tenant's head, its tenant starts nothing more in this one (rule 14).
"""

from __future__ import annotations

from collections.abc import Hashable

from gallery.quotas.wrong_rescans_every_job import Plan, _Account, _Ticket
from gallery.quotas.wrong_rescans_every_job import Scheduler as Written
from variants.quotas.records import Decision, Job, Tenant  # noqa: F401 (the records, read by the suite)

FAILS = "quota_preempted"


class Scheduler(Written):
    def _candidate(
        self,
        account: _Account,
        head: _Ticket,
        now: int,
        fresh: set[Hashable],
        evicted: set[Hashable],
    ) -> tuple[_Ticket, Plan] | None:
        # the mistake: what this call preempted is forgotten
        return super()._candidate(account, head, now, fresh, set())
