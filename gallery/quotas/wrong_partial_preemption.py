"""WRONG: when reclaim cannot free enough, what it took is preempted anyway.

The candidates are preempted as they are taken, and when all of them
together do not make room the head waits, its victims' work thrown away
for nothing.  All or nothing: if every candidate would not do, nothing is
preempted (rule 13).
"""

from __future__ import annotations

from collections.abc import Hashable

from gallery.quotas.wrong_rescans_every_job import Fits, Plan, _Account, _Ticket
from gallery.quotas.wrong_rescans_every_job import Scheduler as Written
from variants.quotas.records import Decision, Job, Tenant  # noqa: F401 (the records, read by the suite)

FAILS = "quota_reclaim"


class Scheduler(Written):
    def _reclaim_plan(
        self, head: _Ticket, account: _Account, now: int, fresh: set[Hashable], fits: Fits
    ) -> Plan | None:
        taken = self._borrowed(head, account, now, fresh, fits)
        if fits(taken):
            return self._cut(taken, fits)
        for victim in taken:  # the mistake: preempted though the head cannot start
            self._preempt(victim, now)
        return None
