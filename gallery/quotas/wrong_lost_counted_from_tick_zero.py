"""WRONG: lost work counted from tick 0: `now % checkpoint_every`, not from the job's start.

Checkpoints are taken every `checkpoint_every` ticks of the job's own run,
counted from its latest start: a job started at 7 with checkpoints every 10
has checkpoints at 17, 27, ...  `now % every` puts them at 10, 20, 30 on
the cluster's clock, so a job preempted at 25 loses 5 ticks where it lost 8
(rule 14): the scheduler charges the wrong cost and picks the wrong victims.
"""

from __future__ import annotations

from gallery.quotas.wrong_rescans_every_job import Scheduler as Written
from gallery.quotas.wrong_rescans_every_job import _Ticket
from variants.quotas.records import Decision, Job, Tenant  # noqa: F401 (the records, read by the suite)

FAILS = "quota_preempted"


class Scheduler(Written):
    @staticmethod
    def _lost_work(victim: _Ticket, now: int) -> int:
        every = victim.job.checkpoint_every
        if every is None:
            return Written._lost_work(victim, now)
        return victim.gpus * (now % every)  # the mistake: the cluster's clock, not the run's
