"""WRONG: a job that finishes or is cancelled while running counts its run as lost.

The lost work is put where the GPUs are given back, so every ending of a
running job adds to it: a tenant whose jobs all complete shows as much
loss as one preempted all day.  Only preemption loses work (rule 14).
"""

from __future__ import annotations

from collections.abc import Hashable

from gallery.quotas.wrong_rescans_every_job import Scheduler as Written
from variants.quotas.records import Decision, Job, Tenant  # noqa: F401 (the records, read by the suite)

FAILS = "quota_preempted"


class Scheduler(Written):
    def _end(self, job_id: Hashable, now: int, allowed: tuple[str, ...], outcome: str) -> None:
        running = [
            t for t in self._tickets.values() if t.status == "running" and t.job.id == job_id
        ]
        super()._end(job_id, now, allowed, outcome)
        for ticket in running:  # the mistake: counted as lost at any ending, not a preemption
            self._by_name[ticket.job.tenant].lost += self._lost_work(ticket, now)
