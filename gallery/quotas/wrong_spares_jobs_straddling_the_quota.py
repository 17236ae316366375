"""WRONG: reclaim takes a job only if its tenant stays at or over its quota without it.

Taking back only what lies wholly above a quota sounds fair to the
borrower, but a job is all its GPUs or none: a tenant 7 over its quota
with 5-GPU jobs gives one back and keeps 2 borrowed GPUs the lender then
never gets.  A job is taken while its tenant is still over its quota, even
if taking it goes below (rules 11 and 16).
"""

from __future__ import annotations

from gallery.quotas.wrong_rescans_every_job import Scheduler as Written
from gallery.quotas.wrong_rescans_every_job import _Account, _Ticket
from variants.quotas.records import Decision, Job, Tenant  # noqa: F401 (the records, read by the suite)

FAILS = "quota_reclaim"


class Scheduler(Written):
    def _still_over(self, owner: _Account, taken_from: dict[str, int], cand: _Ticket) -> bool:
        # the mistake: a job that straddles the quota is spared
        return owner.used - taken_from.get(owner.name, 0) - cand.gpus >= owner.quota
