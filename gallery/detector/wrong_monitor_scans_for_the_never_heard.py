"""WRONG: the ranks never heard found by looking at every rank, at each check.

The heard ranks are kept in the order last heard, rightly, but once the job
has run past the timeout each check walks `range(world_size)` for the ranks
not heard yet: at a million ranks with one never heard, every check does a
million lookups to report one rank.  Keep the never-heard apart (they are
the oldest of all, silent since `start`) and drop each as it is first heard.
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
        self.heard: OrderedDict[int, int] = OrderedDict()

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
        self.heard.move_to_end(rank)

    def stopped(self) -> list[Stopped]:
        now = self._now()
        found = []
        for rank, heard in self.heard.items():
            if now - heard <= self.timeout:
                break
            found.append(Stopped(rank, heard, now - heard))
        never = now - self.start
        if never > self.timeout and len(self.heard) < self.world_size:
            # the mistake: every rank looked at, to find the few never heard
            found += [
                Stopped(r, None, never) for r in range(self.world_size) if r not in self.heard
            ]
        return sorted(found, key=lambda s: (-s.silence, s.rank))
