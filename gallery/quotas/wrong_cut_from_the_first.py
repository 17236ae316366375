"""WRONG: the cut runs forward, from the first taken, sparing the jobs that should go first.

The cut is to spare the victims the head does not need, and the ones to
spare are the most valuable: the first taken are the least important, so
the cut goes from the next-to-last back.  Run forward, it spares the
cheapest victims and keeps a more valuable one (rule 11).
"""

from __future__ import annotations

from gallery.quotas.wrong_rescans_every_job import Fits, _Ticket
from gallery.quotas.wrong_rescans_every_job import Scheduler as Written
from variants.quotas.records import Decision, Job, Tenant  # noqa: F401 (the records, read by the suite)

FAILS = "quota_reclaim"


class Scheduler(Written):
    @staticmethod
    def _cut(taken: list[_Ticket], fits: Fits) -> list[_Ticket]:
        kept = list(taken)
        for i in range(len(taken) - 1):  # the mistake: from the first, forward
            trial = [t for t in kept if t is not taken[i]]
            if fits(trial):
                kept = trial
        return kept
