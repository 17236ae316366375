"""WRONG: ranks once reported are set aside for good: a beat does not take them back.

To keep checks cheap, each check moves the silent ranks it finds out of the
receipt order into a set of the reported, so the next check need not walk
them again.  But beat() only puts the rank back in the order: it stays among
the reported, and a rank heard again is still reported, with its old
last_heard, as stopped.  A cache must be updated by every write to what it
caches.
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
        if world_size < 0 or timeout < 0:
            raise ValueError("world_size and timeout must be >= 0")
        self.clock, self.world_size, self.timeout = clock, world_size, timeout
        self.start = self.last = clock()
        self.order: OrderedDict[int, int | None] = OrderedDict.fromkeys(range(world_size))
        self.reported: dict[int, int | None] = {}  # rank -> last heard, set aside by a check

    def _now(self) -> int:
        now = self.clock()
        if now < self.last:
            raise ValueError("clock went backwards")
        self.last = now
        return now

    def beat(self, rank: int) -> None:
        if not 0 <= rank < self.world_size:
            raise ValueError(f"no rank {rank}")
        self.order[rank] = self._now()  # the mistake: the rank is left among the reported
        self.order.move_to_end(rank)

    def stopped(self) -> list[Stopped]:
        now = self._now()
        while self.order:
            rank, heard = next(iter(self.order.items()))
            if now - (self.start if heard is None else heard) <= self.timeout:
                break
            del self.order[rank]
            self.reported[rank] = heard
        found = [
            Stopped(rank, heard, now - (self.start if heard is None else heard))
            for rank, heard in self.reported.items()
        ]
        return sorted(found, key=lambda s: (-s.silence, s.rank))
