"""Phi accrual for a whole job: asking only the ranks that could be suspicious.

A check that asks every rank's detector costs O(ranks) however healthy the
job.  But each rank's phi only grows while it stays silent, and reaches the
threshold at a silence that its statistics fix: ``mean + pause + y* x std``,
``y*`` the root of Akka's ``z(y) = ln(10**threshold - 1)``, the same for
every rank.  So each rank is kept in a heap by the time before which it
cannot be suspicious (`PhiAccrual.suspicious_from`, a lower bound with a
margin), and a check pops only the ranks whose time has come, then asks
each of those the exact question.  Invariant: a rank not in the heap's
passed part has phi below the threshold now.  A check costs O(1 + ranks
near or past the threshold), a beat O(log ranks).
"""

from __future__ import annotations

import heapq
import time
from collections.abc import Callable
from typing import Any

from solution.diagnosis.phi import PhiAccrual


class PhiMonitor:
    """One `PhiAccrual` per rank of `world_size`, on one injected clock."""

    def __init__(
        self,
        world_size: int,
        *,
        clock: Callable[[], int] = lambda: time.monotonic_ns() // 1_000_000,
        **settings: Any,
    ) -> None:
        if world_size < 0:
            raise ValueError(f"world_size must be >= 0, got {world_size}")
        self._clock = clock
        self.detectors = [PhiAccrual(clock=clock, **settings) for _ in range(world_size)]
        self._heap: list[tuple[float, int, int]] = []  # (suspicious_from, beat number, rank)
        self._beats = [0] * world_size  # a rank's latest beat number: older entries are stale
        self._due: set[int] = set()  # ranks whose time has come, until they beat again

    def beat(self, rank: int) -> None:
        """Record a heartbeat from `rank`, received now."""
        if not 0 <= rank < len(self.detectors):
            raise ValueError(f"rank {rank!r} is outside [0, {len(self.detectors)})")
        detector = self.detectors[rank]
        detector.heartbeat()
        self._beats[rank] += 1
        self._due.discard(rank)
        when = detector.suspicious_from()
        assert when is not None  # it has just had a heartbeat
        heapq.heappush(self._heap, (when, self._beats[rank], rank))

    def suspected(self) -> list[int]:
        """The ranks whose phi is at or above the threshold now, ascending: exactly the ranks
        whose detector is not available, each asked once if its time has come, else not."""
        now = self._clock()
        while self._heap and self._heap[0][0] <= now:
            _, number, rank = heapq.heappop(self._heap)
            if number == self._beats[rank]:
                self._due.add(rank)
        return sorted(r for r in self._due if not self.detectors[r].is_available())
