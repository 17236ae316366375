"""WRONG: a tenant of quota 0 is given a share of 0, so it borrows first.

To avoid dividing by zero, usage / 0 is taken as 0: the tenant with no
guarantee at all looks the most deprived and wins every tie for idle GPUs,
ahead of tenants borrowing beyond a real quota.  Its share is infinite: it
borrows last (rule 9).
"""

from __future__ import annotations

from fractions import Fraction

from gallery.quotas.wrong_rescans_every_job import Scheduler as Written
from gallery.quotas.wrong_rescans_every_job import _Account
from variants.quotas.records import Decision, Job, Tenant  # noqa: F401 (the records, read by the suite)

FAILS = "quota_order"


class Scheduler(Written):
    @staticmethod
    def _share(account: _Account) -> tuple[int, Fraction]:
        if account.quota == 0:
            return (0, Fraction(0))  # the mistake: no quota read as no share, not infinite
        return (0, Fraction(account.used, account.quota))
