"""WRONG (in cost only): every check scans every rank.

The answers are right, so only the cost check sees it: a check is
O(world size), about 14 ms at a million ranks, paid by a collector many
times a second.  Keep ranks in the order they were last heard and stop at
the first within the timeout: O(1 + ranks reported).
"""

import time
from collections.abc import Callable

from solution import Stopped

FAILS = "monitor_cost"


class HeartbeatMonitor:
    def __init__(
        self, world_size: int, timeout: int, *, clock: Callable[[], int] = time.monotonic_ns
    ) -> None:
        if world_size < 0 or timeout < 0:
            raise ValueError("world_size and timeout must be >= 0")
        self.clock, self.world_size, self.timeout = clock, world_size, timeout
        self.start = self.last = clock()
        self.heard: dict[int, int] = {}

    def _now(self) -> int:
        now = self.clock()
        if now < self.last:
            raise ValueError("clock went backwards")
        self.last = now
        return now

    def beat(self, rank: int) -> None:
        if not 0 <= rank < self.world_size:
            raise ValueError(f"no rank {rank}")
        self.heard[rank] = self._now()

    def stopped(self) -> list[Stopped]:
        now = self._now()
        found = []
        for rank in range(self.world_size):  # the mistake: every rank, every check
            heard = self.heard.get(rank)
            silence = now - (self.start if heard is None else heard)
            if silence > self.timeout:
                found.append(Stopped(rank, heard, silence))
        return sorted(found, key=lambda s: (-s.silence, s.rank))
