"""WRONG: a job must have run more than min_run ticks to be preempted, not at least min_run.

Off by one tick: a job that has run exactly min_run ticks is protected a
tick longer than the contract says, and a guaranteed head waits a call for
it.  A candidate has run at least min_run ticks (rule 11).
"""

from __future__ import annotations

from collections.abc import Hashable

from gallery.quotas.wrong_rescans_every_job import Scheduler as Written
from gallery.quotas.wrong_rescans_every_job import _Ticket
from variants.quotas.records import Decision, Job, Tenant  # noqa: F401 (the records, read by the suite)

FAILS = "quota_reclaim"


class Scheduler(Written):
    def _movable(self, ticket: _Ticket, now: int, fresh: set[Hashable]) -> bool:
        return (
            ticket.status == "running"
            and ticket.job.preemptible
            and now - ticket.started > self._min_run  # the mistake: > for >=
            and ticket.job.id not in fresh
        )
