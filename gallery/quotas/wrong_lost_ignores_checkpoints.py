"""WRONG: lost work is always the GPUs times all the ticks run: checkpoints ignored.

A job that checkpoints every few ticks loses only the work since its last
checkpoint; counting all of it overstates what preemption costs, and a
tenant that checkpoints is charged as one that does not.  Lost is
gpus x ((now - started) % checkpoint_every) (rule 14).
"""

from __future__ import annotations

from gallery.quotas.wrong_rescans_every_job import Scheduler as Written
from gallery.quotas.wrong_rescans_every_job import _Ticket
from variants.quotas.records import Decision, Job, Tenant  # noqa: F401 (the records, read by the suite)

FAILS = "quota_preempted"


class Scheduler(Written):
    @staticmethod
    def _lost_work(victim: _Ticket, now: int) -> int:
        return victim.gpus * (now - victim.started)  # the mistake: checkpoints never read
