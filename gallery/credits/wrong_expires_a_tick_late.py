"""WRONG: a reservation is released only once its time to live has passed (`>`).

Reserved at 10 for 5 ticks, it should be gone at 15; held one tick longer,
its credits are unavailable a tick too long.
"""

from __future__ import annotations

import heapq

from gallery.credits.right_scans_the_accounts import (  # noqa: F401 (its own records, read by the suite)
    Balance,
    Config,
    Job,
)
from gallery.credits.right_scans_the_accounts import Scheduler as Written

FAILS = "credits_reservations"


class Scheduler(Written):
    def expire(self, now: int) -> None:
        while self.expiries and self.expiries[0][0] < now:  # the mistake: <, not <=
            _, reservation, job_id = heapq.heappop(self.expiries)
            entry = self.entries[job_id]
            if entry.state == "reserved" and entry.reservation == reservation:
                self.unhold(entry)
