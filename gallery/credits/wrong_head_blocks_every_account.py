"""WRONG: when the next job cannot start, scheduling stops for everyone.

Strict FIFO across accounts: one account with an empty wallet holds up every
other account's jobs.  The contract is best effort across accounts, as
Kueue's default BestEffortFIFO: skip it, try the next.
"""

from __future__ import annotations

from collections.abc import Hashable

from gallery.credits.right_scans_the_accounts import (  # noqa: F401 (its own records, read by the suite)
    Balance,
    Config,
    Job,
)
from gallery.credits.right_scans_the_accounts import Scheduler as Written

FAILS = "credits_order"


class Scheduler(Written):
    def schedule(self, *, now: int) -> list[Hashable]:
        if self.late(now):
            raise ValueError("time went back")
        self.clock = now
        self.expire(now)
        started: list[Hashable] = []
        while self.running() < self.config.slots:
            heads = [(a, self.head(a), i) for i, a in enumerate(self.accounts.values())]
            ranked = [(self.rank(a, h, i), a, h) for a, h, i in heads if h is not None]
            if not ranked:
                return started
            _, account, head = min(ranked, key=lambda r: r[0])
            if not self.eligible(account, head):
                return started  # the mistake: the first in line blocks everyone
            started.append(self.start(account, head))
        return started
