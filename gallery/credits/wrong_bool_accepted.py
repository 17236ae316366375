"""WRONG: True and False accepted as the credits 1 and 0.

In Python a bool is an int, so isinstance(True, int) holds: `deposit("a",
True)` puts one credit in the account, `finish(job, True)` spends one.
Almost certainly a caller's mistake, which the scheduler should refuse:
deposits, costs and `used` are ints, never a float or a bool (rule 1), and
a bool is a ValueError.
"""

from __future__ import annotations

from gallery.credits.right_scans_the_accounts import (  # noqa: F401 (its own records)
    Account,
    Balance,
    Config,
    Entry,
    Job,
)
from gallery.credits.right_scans_the_accounts import Scheduler as Written

FAILS = "credits_conservation"


class Scheduler(Written):
    @staticmethod
    def whole(credits: object) -> int:
        if not isinstance(credits, int):  # the mistake: a bool is an int to isinstance
            raise ValueError(f"credits are ints, not {credits!r}")
        return credits
