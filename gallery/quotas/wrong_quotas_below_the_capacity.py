"""WRONG: quotas that add up to exactly the capacity refused.

Off by one: a cluster split wholly into guarantees (4 + 4 on 8 GPUs) is
a promise the cluster can keep, and the commonest configuration there is.
Only more than the capacity is refused (rule 2).
"""

from __future__ import annotations

from gallery.quotas.wrong_rescans_every_job import Scheduler as Written
from variants.quotas.records import Decision, Job, Tenant  # noqa: F401 (the records, read by the suite)

FAILS = "quota_validation"


class Scheduler(Written):
    @staticmethod
    def _quotas_fit(total: int, capacity: int) -> bool:
        return total < capacity  # the mistake: < for <=
