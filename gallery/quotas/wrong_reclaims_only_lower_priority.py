"""WRONG: reclaim takes back only jobs of lower priority than the head.

Priority is read across tenants, so a borrower that runs its borrowed
jobs at a high priority keeps them: the lender's guarantee is only as good
as the priorities the borrower chose.  Capacity over a quota is taken back
whatever its priority (Kueue's reclaimWithinCohort: Any; rule 11).
"""

from __future__ import annotations

from collections.abc import Hashable

from gallery.quotas.wrong_rescans_every_job import Scheduler as Written
from gallery.quotas.wrong_rescans_every_job import _Account, _Ticket
from variants.quotas.records import Decision, Job, Tenant  # noqa: F401 (the records, read by the suite)

FAILS = "quota_reclaim"


class Scheduler(Written):
    def _reclaimable(
        self, ticket: _Ticket, head: _Ticket, account: _Account, now: int, fresh: set[Hashable]
    ) -> bool:
        return (
            super()._reclaimable(ticket, head, account, now, fresh)
            and ticket.job.priority < head.job.priority  # the mistake: priority across tenants
        )
