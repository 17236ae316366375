"""WRONG: victims taken newest first whatever their priority.

The most recently started job is the cheapest to lose only among jobs of
one priority: an important job just started goes before an unimportant
one that has run a while.  Lowest priority first, then the most recently
started, then the most recently submitted (rules 11 and 12).
"""

from __future__ import annotations

from gallery.quotas.wrong_rescans_every_job import Scheduler as Written
from gallery.quotas.wrong_rescans_every_job import _Ticket
from variants.quotas.records import Decision, Job, Tenant  # noqa: F401 (the records, read by the suite)

FAILS = "quota_reclaim"


class Scheduler(Written):
    def _victim_rank(self, ticket: _Ticket) -> tuple[int, int, int]:
        return (0, -ticket.started, -ticket.serial)  # the mistake: no priority
