"""WRONG: `schedule` releases due reservations before it checks that time did not go back.

`schedule(9)` after `reserve(job, now=10, ...)` is refused, rightly, but the
reservations it released on its way in stay released: the ValueError comes
with a change behind it.  Check the time first, then act.
"""

from __future__ import annotations

from collections.abc import Hashable

from gallery.credits.right_scans_the_accounts import (  # noqa: F401 (its own records)
    Account,
    Balance,
    Config,
    Entry,
    Job,
)
from gallery.credits.right_scans_the_accounts import Scheduler as Written

FAILS = "credits_errors"


class Scheduler(Written):
    def schedule(self, *, now: int) -> list[Hashable]:
        self.expire(now)  # the mistake: before the check
        return super().schedule(now=now)
