"""WRONG (in cost only): receipt order kept in a list, so a beat is O(world size).

`order.remove(rank); order.append(rank)` keeps ranks oldest-heard first, and
the check stops early as it should; but list.remove searches the list, so a
beat costs O(world size), paid for every heartbeat of every rank.  An
ordered dict's move_to_end, or a queue of receipts, makes it O(1).
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
        self.order = list(range(world_size))  # oldest-heard first

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
        self.order.remove(rank)  # the mistake: a linear search, every beat
        self.order.append(rank)

    def stopped(self) -> list[Stopped]:
        now = self._now()
        found = []
        for rank in self.order:
            heard = self.heard.get(rank)
            silence = now - (self.start if heard is None else heard)
            if silence <= self.timeout:
                break
            found.append(Stopped(rank, heard, silence))
        return sorted(found, key=lambda s: (-s.silence, s.rank))
