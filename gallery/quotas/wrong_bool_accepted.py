"""WRONG: True and False accepted as the ints 1 and 0.

In Python a bool is an int, so isinstance(True, int) holds: a capacity of
True makes a one-GPU cluster, a job of True GPUs runs on one.  Almost
certainly a caller's mistake, which the scheduler should refuse: a bool is
a ValueError (rule 1).
"""

from __future__ import annotations

from gallery.quotas.wrong_rescans_every_job import Scheduler as Written
from variants.quotas.records import Decision, Job, Tenant  # noqa: F401 (the records, read by the suite)

FAILS = "quota_validation"


class Scheduler(Written):
    @staticmethod
    def _is_int(value: object) -> bool:
        return isinstance(value, int)  # the mistake: a bool is an int to isinstance
