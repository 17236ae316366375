"""WRONG (in cost only): every check copies every rank before walking from the oldest.

The walk stops at the first rank within the timeout, as it should, but it
walks a copy (`list(self.order.items())`) made of the whole world first: a
million-rank job copies a million pairs on every check, in C, where no count
of Python lines can see it.  Walk the ordered dict itself.
"""

import time
from collections import OrderedDict
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
        now = self._now()
        self.order.move_to_end(rank)
        self.order[rank] = now

    def stopped(self) -> list[Stopped]:
        now = self._now()
        found = []
        for rank, heard in list(self.order.items()):  # the mistake: a copy of every rank
            silence = now - (self.start if heard is None else heard)
            if silence <= self.timeout:
                break
            found.append(Stopped(rank, heard, silence))
        return sorted(found, key=lambda s: (-s.silence, s.rank))
