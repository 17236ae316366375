"""WRONG: a borrower starts while a head within its quota waits in the same call.

The guaranteed head waits for victims old enough to preempt (min_run),
and meanwhile a borrower takes the GPUs that free up: the head must then
wait for that borrower to age too, and for the next one, for ever.  While a
head within its quota cannot start, no head borrows (rules 9 and 16).
"""

from __future__ import annotations

from gallery.quotas.wrong_rescans_every_job import Scheduler as Written
from variants.quotas.records import Decision, Job, Tenant  # noqa: F401 (the records, read by the suite)

FAILS = "quota_order"


class Scheduler(Written):
    def _borrower_may_start(self, waiting: bool) -> bool:
        return True  # the mistake: a waiting guaranteed head never holds borrowers back
