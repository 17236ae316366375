"""WRONG: `reserve` checks its `now` but does not record it.

A reservation made at 30 is a reading of the clock: a `schedule(now=27)`
after it goes back in time, and must be refused (rule 15), as it would be
after a `schedule(now=30)`.  Checking `now` against the clock is half of it;
the other half is moving the clock to it.
"""

from __future__ import annotations

from collections.abc import Hashable

from gallery.credits.right_scans_the_accounts import (  # noqa: F401 (its own records, read by the suite)
    Account,
    Balance,
    Config,
    Entry,
    Job,
)
from gallery.credits.right_scans_the_accounts import Scheduler as Written

FAILS = "credits_errors"


class Scheduler(Written):
    def reserve(self, job_id: Hashable, *, now: int, ttl: int) -> None:
        clock = self.clock
        super().reserve(job_id, now=now, ttl=ttl)
        self.clock = clock  # the mistake: the reservation's now is not kept
