"""The streaming form of `detect`: what a collector process runs.

Invariant: ranks are kept in the order their latest heartbeat was received,
never-heard ranks first (silent since `start`).  The collector's clock is
monotonic, so that order is also the order of ``last_heard``: the longest
silent rank is always at the front.  A check walks from the front and stops
at the first rank within the timeout, so it costs O(1 + ranks reported),
whatever the world size (plus ordering ties among the reported by rank: a
sort of nearly sorted data); a beat moves one rank to the back, O(1).

A beat is what a collector does for every heartbeat of every rank, so it is
kept to the least work that keeps the invariant: one clock reading, one
comparison with the last reading, and an ordered dict's move to the back and
store (a linked list underneath: no scan, and no holes left for a check to
skip, as a plain dict's deletions would leave).  `benchmarks/monitor.py`
sets it beside a bare ``dict[rank] = clock()`` store, and beside a queue of
receipts, in one run.
"""

from __future__ import annotations

import time
from collections import OrderedDict
from collections.abc import Callable

from solution.detector import Stopped, by_silence, check_window, silent_rank


class HeartbeatMonitor:
    """Stamps heartbeats with the collector's clock and reports silent ranks.

    ``stopped()`` returns exactly what ``detect`` returns for every beat so far,
    with ``start`` the clock at construction and ``now = clock()``, read once.
    The clock is injected (``clock=``) so tests drive it by hand; a reading
    earlier than the last one accepted raises ValueError, in ``beat`` and in
    ``stopped`` alike, and is not kept.
    """

    __slots__ = ("_by_receipt", "_clock", "_latest", "_to_back", "start", "timeout", "world_size")

    def __init__(
        self, world_size: int, timeout: int, *, clock: Callable[[], int] = time.monotonic_ns
    ) -> None:
        self._clock = clock
        self.start = self._latest = clock()
        self.world_size, self.timeout = world_size, timeout
        check_window(world_size=world_size, start=self.start, now=self.start, timeout=timeout)
        # rank -> last_heard (None: never heard), oldest first.
        self._by_receipt: OrderedDict[int, int | None] = OrderedDict.fromkeys(range(world_size))
        self._to_back = self._by_receipt.move_to_end

    def beat(self, rank: int) -> None:
        """Record a heartbeat from `rank`, received now by the collector's clock."""
        now = self._clock()
        if now < self._latest:
            raise ValueError(f"the collector's clock went back from {self._latest} to {now}")
        try:
            self._to_back(rank)  # every rank of the world is a key, from construction on
        except (KeyError, TypeError):
            raise ValueError(f"rank {rank!r} is outside [0, {self.world_size})") from None
        self._by_receipt[rank] = self._latest = now

    def receipts(self) -> list[tuple[int, int | None]]:
        """Every rank's latest receipt (None: never heard), oldest first: a snapshot, taken in
        one step (a metrics scrape reads it from another thread)."""
        return list(self._by_receipt.items())

    def stopped(self) -> list[Stopped]:
        """The ranks silent for more than `timeout` now, longest silence first."""
        now = self._clock()
        if now < self._latest:
            raise ValueError(f"the collector's clock went back from {self._latest} to {now}")
        self._latest = now
        reported = []
        for rank, last_heard in self._by_receipt.items():
            silent = silent_rank(rank, last_heard, start=self.start, now=now, timeout=self.timeout)
            if silent is None:
                break  # every rank behind this one was heard more recently
            reported.append(silent)
        # Receipt order is silence order already; sorting only breaks ties by rank.
        return by_silence(reported)
