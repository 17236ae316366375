"""WRONG: the tenants read twice: a first pass checks them, a second keeps them.

`sum(t.quota for t in tenants)` checks the quotas, then `list(tenants)` keeps
them: from a generator the second read is empty (or the first pass checked
nothing the second one keeps), so quotas over the capacity, or a tenant named
twice, pass unseen.  Read the iterable once, into a list, and check the list
(rule 2).
"""

from __future__ import annotations

from collections.abc import Iterable

from gallery.quotas.wrong_rescans_every_job import Scheduler as Written
from variants.quotas.records import Decision, Job, Tenant  # noqa: F401 (the records, read by the suite)

FAILS = "quota_validation"


class Scheduler(Written):
    def __init__(
        self, capacity: int, tenants: Iterable[Tenant], *, reclaim: bool = True, min_run: int = 0
    ) -> None:
        total = sum(t.quota for t in tenants)  # the mistake: a first pass over the iterable
        if total > capacity:
            raise ValueError("quotas add up to more than the capacity")
        super().__init__(capacity, tenants, reclaim=reclaim, min_run=min_run)
