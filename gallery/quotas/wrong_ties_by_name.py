"""WRONG: equal shares broken by the tenant's name, not by the order the tenants were given.

The configuration's order is the operator's statement of who comes first
when shares tie; the alphabet is an accident of naming.  "dev" goes before
"prod" by name, though prod was given first (rule 9).
"""

from __future__ import annotations

from gallery.quotas.wrong_rescans_every_job import Key, _Account, _Ticket
from gallery.quotas.wrong_rescans_every_job import Scheduler as Written
from variants.quotas.records import Decision, Job, Tenant  # noqa: F401 (the records, read by the suite)

FAILS = "quota_order"


class Scheduler(Written):
    def _rank(self, head: _Ticket, account: _Account) -> Key:
        guaranteed = account.used + head.gpus <= account.quota
        return (0 if guaranteed else 1, self._share(account), account.name)  # the mistake
