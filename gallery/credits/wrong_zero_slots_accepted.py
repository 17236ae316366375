"""WRONG: only a negative number of slots refused, so a scheduler of 0 slots is made.

`slots < 0` lets 0 through: the scheduler takes deposits and jobs, and never
starts one, since no slot is ever free; every job waits for ever, and
nothing says why.  A scheduler needs at least one slot: refuse `slots < 1`.
"""

from __future__ import annotations

from dataclasses import dataclass

from gallery.credits.right_scans_the_accounts import (  # noqa: F401 (its own records)
    Balance,
    Job,
)
from gallery.credits.right_scans_the_accounts import Scheduler as Written

FAILS = "credits_errors"


@dataclass(frozen=True)
class Config:
    slots: int
    fair: bool = False

    def __post_init__(self) -> None:
        if self.slots < 0:  # the mistake: < 0 where < 1 is meant
            raise ValueError("no slots")


class Scheduler(Written):
    pass
