"""WRONG: the clock moves to the time of a call before the call is known to be honoured.

A refused call at now=10 leaves the clock at 10, so a valid call at 5 is
then refused as time gone back: the refused call changed something after
all.  The time of a refused call has not passed (rules 3 and 6).
"""

from __future__ import annotations

from gallery.quotas.wrong_rescans_every_job import Scheduler as Written
from variants.quotas.records import Decision, Job, Tenant  # noqa: F401 (the records, read by the suite)

FAILS = "quota_validation"


class Scheduler(Written):
    def _check_now(self, now: int) -> None:
        super()._check_now(now)
        self._now = now  # the mistake: moved before the rest of the call is checked
