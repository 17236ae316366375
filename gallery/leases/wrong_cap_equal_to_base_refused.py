"""WRONG: a queue whose cap equals its base is refused.

Rule 1 refuses a cap *below* base; a cap equal to base is a sound policy,
every wait drawn from randint(0, base) whatever the attempt (a flat full
jitter, no doubling).  Checking `cap <= base` refuses it with a ValueError,
so a service configured with the same value for both cannot start.
"""

from __future__ import annotations

from random import Random

from gallery.leases.wrong_scans_the_queue import Queue as Written
from variants.leases.records import Fenced, Item, Lease  # noqa: F401 (the records, read by the suite)

FAILS = "lease_validation"


class Queue(Written):
    def __init__(
        self, *, lease_ticks: int, max_attempts: int, base: int, cap: int, rng: Random
    ) -> None:
        for value in (lease_ticks, max_attempts, base, cap):
            if not self._is_int(value):
                raise ValueError(f"not an int: {value!r}")
        if lease_ticks < 1 or max_attempts < 1 or base < 1 or cap <= base:  # the mistake: <=
            raise ValueError("lease_ticks, max_attempts and base at least 1, cap above base")
        super().__init__(
            lease_ticks=lease_ticks, max_attempts=max_attempts, base=base, cap=cap, rng=rng
        )
