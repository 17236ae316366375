"""WRONG: a tenant's limit is quota + borrowing limit even past the capacity.

A borrowing limit larger than the cluster makes a limit no job can
reach: a job of 9 GPUs on 8 is accepted and waits forever.  The limit is
never more than the capacity, and a job above it is refused (rule 4).
"""

from __future__ import annotations

from gallery.quotas.wrong_rescans_every_job import Scheduler as Written
from variants.quotas.records import Decision, Job, Tenant  # noqa: F401 (the records, read by the suite)

FAILS = "quota_validation"


class Scheduler(Written):
    @staticmethod
    def _limit(capacity: int, quota: int, borrow: int | None) -> int:
        return capacity if borrow is None else quota + borrow  # the mistake: no min(capacity, ...)
