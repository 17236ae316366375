"""WRONG: shares compared as floats, usage / quota.

Two shares that differ past the 53 bits of a float's mantissa compare equal:
with quotas near 2**60, 2**59 of 2**60 and 2**59 - 1 of 2**60 - 3 are both
0.5, and the tie goes to the order the tenants were given, where the exact
shares say the smaller goes first (rule 9).  GPU counts are ints and their
ratio is exact as a Fraction, or compared by cross-multiplying.
"""

from __future__ import annotations

from gallery.quotas.wrong_rescans_every_job import Scheduler as Written
from gallery.quotas.wrong_rescans_every_job import _Account
from variants.quotas.records import Decision, Job, Tenant  # noqa: F401 (the records, read by the suite)

FAILS = "quota_order"


class Scheduler(Written):
    @staticmethod
    def _share(account: _Account) -> tuple[int, float]:  # type: ignore[override]  # the mistake: a float where the base keeps a Fraction
        if account.quota == 0:
            return (1, 0.0)  # an infinite share
        return (0, account.used / account.quota)  # the mistake: a float
