"""WRONG: heads ordered by share alone: a borrower may start before a guaranteed head.

Of two idle tenants, the one given first starts its head first even if
that head would borrow, and the other tenant's head, within its quota,
then reclaims the GPUs just lent: a start wasted, a preemption for
nothing.  Heads that keep their tenant within its quota go first; only
then the smallest share (rule 9).
"""

from __future__ import annotations

from gallery.quotas.wrong_rescans_every_job import Key, _Account, _Ticket
from gallery.quotas.wrong_rescans_every_job import Scheduler as Written
from variants.quotas.records import Decision, Job, Tenant  # noqa: F401 (the records, read by the suite)

FAILS = "quota_order"


class Scheduler(Written):
    def _rank(self, head: _Ticket, account: _Account) -> Key:
        return (0, self._share(account), account.rank)  # the mistake: no guaranteed first
