"""WRONG: floats accepted wherever an int is asked for.

A quota of 0.1 + 0.2 GPUs is not a quota of 0.3: in floats, a job the
quota allows is refused, or one past it is let in, and GPU-ticks of lost
work drift.  Capacities, quotas, GPU counts, priorities, intervals and
times are ints; a float is a ValueError (rule 1).
"""

from __future__ import annotations

from gallery.quotas.wrong_rescans_every_job import Scheduler as Written
from variants.quotas.records import Decision, Job, Tenant  # noqa: F401 (the records, read by the suite)

FAILS = "quota_validation"


class Scheduler(Written):
    @staticmethod
    def _is_int(value: object) -> bool:
        return isinstance(value, int | float) and not isinstance(value, bool)  # the mistake
