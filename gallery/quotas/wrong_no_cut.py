"""WRONG: every candidate taken on the way is preempted: no cut.

Taking candidates in order until the head fits may take small jobs first
that a large one taken last makes unnecessary: they are preempted, their
work lost, for GPUs nobody needed.  After taking, spare each victim the
head fits without, from the next-to-last back (rule 11).
"""

from __future__ import annotations

from gallery.quotas.wrong_rescans_every_job import Fits, _Ticket
from gallery.quotas.wrong_rescans_every_job import Scheduler as Written
from variants.quotas.records import Decision, Job, Tenant  # noqa: F401 (the records, read by the suite)

FAILS = "quota_reclaim"


class Scheduler(Written):
    @staticmethod
    def _cut(taken: list[_Ticket], fits: Fits) -> list[_Ticket]:
        return list(taken)  # the mistake: nothing spared
