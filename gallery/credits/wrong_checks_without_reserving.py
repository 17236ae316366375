"""WRONG: reserve() checks the balance but does not hold the credits.

Two jobs both pass the check against the same credits; when they start, the
account spends money it does not have.  A reservation moves the cost out of
`available` at once, so the next check sees what is really left.
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

FAILS = "credits_reservations"


class Scheduler(Written):
    def reserve(self, job_id: Hashable, *, now: int, ttl: int) -> None:
        entry = self.entry(job_id)
        account = self.accounts[entry.job.account]
        if entry.state != "queued" or ttl <= 0 or self.late(now):
            raise ValueError(f"cannot reserve {job_id!r}")
        if entry.job.cost > account.available:
            raise ValueError(f"{account.name} cannot pay for {job_id!r}")
        self.clock = now
        entry.state = "reserved"  # the mistake: nothing held, and nothing to expire
