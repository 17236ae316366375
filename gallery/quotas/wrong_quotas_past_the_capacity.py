"""WRONG: quotas that add up to more than the capacity accepted.

Quotas of 5 and 4 on 8 GPUs promise 9: when both tenants ask for their
quota at once, one guarantee is broken, and reclaim can find nothing over
a quota to take.  Refuse the configuration (rule 2).
"""

from __future__ import annotations

from gallery.quotas.wrong_rescans_every_job import Scheduler as Written
from variants.quotas.records import Decision, Job, Tenant  # noqa: F401 (the records, read by the suite)

FAILS = "quota_validation"


class Scheduler(Written):
    @staticmethod
    def _quotas_fit(total: int, capacity: int) -> bool:
        return True  # the mistake: the sum of the quotas never checked
