"""WRONG: only beat() notices a clock that went backwards; stopped() reads it unchecked.

A collector whose clock steps back (a wall clock, or a bug) can then report
negative silences or hide silent ranks at a check.  Both methods read the
clock: both must refuse a reading earlier than the last.
"""

import time
from collections import OrderedDict
from collections.abc import Callable

from solution import Stopped

FAILS = "validation"


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
        self.order[rank] = self._now()
        self.order.move_to_end(rank)

    def stopped(self) -> list[Stopped]:
        now = self.clock()  # the mistake: not checked against the last reading
        found = []
        for rank, heard in self.order.items():
            silence = now - (self.start if heard is None else heard)
            if silence <= self.timeout:
                break
            found.append(Stopped(rank, heard, silence))
        return sorted(found, key=lambda s: (-s.silence, s.rank))
