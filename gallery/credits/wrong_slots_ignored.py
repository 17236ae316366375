"""WRONG: every job that can be paid starts, however many GPUs there are.

Credits are not GPUs: a scheduler that starts eight jobs on four slots
oversubscribes them.  At most `slots` jobs run at once.
"""

from __future__ import annotations

from gallery.credits.right_scans_the_accounts import (  # noqa: F401 (its own records, read by the suite)
    Balance,
    Config,
    Job,
)
from gallery.credits.right_scans_the_accounts import Scheduler as Written

FAILS = "credits_limits"


class Scheduler(Written):
    def running(self) -> int:
        return 0  # the mistake: the slots are never full
