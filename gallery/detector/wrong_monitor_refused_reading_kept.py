"""WRONG: a reading refused for going back is kept as the last reading.

The reading is stored first and compared after, so the refused one becomes
the mark the next is compared with: after 10, a refused 5 lets 7 through,
though 7 is still earlier than 10, the last reading the monitor acted on.
A refused call changes nothing, the clock's mark included: compare, then
keep.
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
        last, self.last = self.last, self.clock()  # the mistake: kept before it is checked
        if self.last < last:
            raise ValueError("clock went backwards")
        return self.last

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
