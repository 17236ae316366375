"""WRONG: a timeout of 0 refused, as if a timeout had to be positive.

A timeout of 0 is a valid question: report every rank not heard at this very
tick (a test harness, or a check right after a barrier).  Refusing it, like
refusing a world of no ranks, turns an edge of the contract into an error.
Only a negative timeout or world size is impossible.
"""

import time
from collections import OrderedDict
from collections.abc import Callable

from solution import Stopped

FAILS = "monitor"


class HeartbeatMonitor:
    def __init__(
        self, world_size: int, timeout: int, *, clock: Callable[[], int] = time.monotonic_ns
    ) -> None:
        if world_size < 0 or timeout <= 0:  # the mistake: timeout 0 refused
            raise ValueError("world_size must be >= 0 and timeout > 0")
        self.clock, self.world_size, self.timeout = clock, world_size, timeout
        self.start = self.last = clock()
        self.order: OrderedDict[int, int | None] = OrderedDict.fromkeys(range(world_size))

    def _now(self) -> int:
        now = self.clock()
        if now < self.last:
            raise ValueError("clock went backwards")
        self.last = now
        return now

    def beat(self, rank: int) -> None:
        if not 0 <= rank < self.world_size:
            raise ValueError(f"no rank {rank}")
        self.order[rank] = self._now()
        self.order.move_to_end(rank)

    def stopped(self) -> list[Stopped]:
        now = self._now()
        found = []
        for rank, heard in self.order.items():
            silence = now - (self.start if heard is None else heard)
            if silence <= self.timeout:
                break
            found.append(Stopped(rank, heard, silence))
        return sorted(found, key=lambda s: (-s.silence, s.rank))
