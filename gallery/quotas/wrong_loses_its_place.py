"""WRONG: a preempted job is queued again as if newly submitted.

Given a fresh submission number, the preempted job goes behind every job
of its priority submitted after it: each preemption sends it to the back,
and a job preempted often never runs.  It is queued again at its place:
its priority and its first submission (rule 14).
"""

from __future__ import annotations

from gallery.quotas.wrong_rescans_every_job import Scheduler as Written
from gallery.quotas.wrong_rescans_every_job import _Ticket
from variants.quotas.records import Decision, Job, Tenant  # noqa: F401 (the records, read by the suite)

FAILS = "quota_preempted"


class Scheduler(Written):
    def _preempt(self, victim: _Ticket, now: int) -> None:
        super()._preempt(victim, now)
        victim.serial = self._serial  # the mistake: queued again as a new submission
        self._serial += 1
