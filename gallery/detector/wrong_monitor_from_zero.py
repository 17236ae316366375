"""WRONG: the monitor measures never-heard ranks from clock 0, not from its start.

A monotonic clock counts from boot, not from when the job started: every rank
that has not beaten yet is reported the moment the monitor is created.
"""

import time
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
        self.last = clock()
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
        for rank in range(self.world_size):
            silence = now - self.heard.get(rank, 0)  # the mistake: 0, not the start
            if silence > self.timeout:
                found.append(Stopped(rank, self.heard.get(rank), silence))
        return sorted(found, key=lambda s: (-s.silence, s.rank))
