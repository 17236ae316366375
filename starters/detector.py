"""Heartbeat kata: which rank of a training job stopped, and when?

The kata's command line copies this file and gives it to you a step at a time:

    python -m kata start detector   # my_detector.py, and step 1
    python -m kata check   # the steps written so far, then the next
    python -m kata hint    # stuck? a hint (three to a step)

(or, all at once: python -m pytest --impl my_detector.py --rubric).

Each of the three exercises is scored on its own; leave one unwritten and its
tests are reported as not attempted.  Standard library only.

Times are integers: ticks of the *collector's* monotonic clock.  Read README.md
for the contract in full; every rule below is pinned by a test.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from fractions import Fraction
from typing import NamedTuple


class Heartbeat(NamedTuple):
    """One heartbeat as the collector logged it."""

    rank: int  # 0 <= rank < world_size
    sent_at: int  # the sender's own clock: skewed, may jump, not comparable across hosts
    received_at: int  # the collector's monotonic clock


class Stopped(NamedTuple):
    """A rank silent for longer than the timeout."""

    rank: int
    last_heard: int | None  # received_at of its latest heartbeat; None if never heard
    silence: int  # now - last_heard, or now - start if never heard


def detect(
    heartbeats: Iterable[Heartbeat], *, world_size: int, start: int, now: int, timeout: int
) -> list[Stopped]:
    """Return the ranks silent for more than `timeout` as of `now`.

    1. Only heartbeats with received_at <= now count (a log may hold later ones:
       this replays it as of `now`).
    2. A rank's last_heard is the greatest received_at among those, whatever
       the order of the input.
    3. sent_at never changes the answer.
    4. A rank never heard is silent since `start`.
    5. A rank is reported iff silence > timeout: exactly `timeout` late is not.
    6. Order: silence descending (the first rank to stop first), ties by rank ascending.
    7. Raise ValueError for a rank outside [0, world_size), a negative timeout or
       world_size, now < start, or a heartbeat received before start, whatever
       else the call asks (even when nobody could be silent yet).
    8. heartbeats is any iterable (a list, an iterator, a generator): read it
       once and never modify it.  Return a list.
    """
    raise NotImplementedError("detect")


def misses_for_budget(
    *, miss_probability: float | Fraction, opportunities: int, budget: float | Fraction
) -> int:
    """Return the smallest k >= 1 with opportunities * miss_probability**k <= budget.

    miss_probability: the chance one heartbeat is lost or late.  opportunities:
    heartbeat slots over the horizon (ranks x horizon / interval).  budget: the
    false alarms allowed over that horizon.  Exactly: p = 1/8, n = 8**7,
    budget = 1 gives 7.  Return an int; stay exact at any size (n = 10**20, k in
    the thousands); take a float at its exact binary value (Fraction(0.1), not
    1/10).  Raise ValueError unless 0 <= p < 1, n >= 0, budget > 0.
    """
    raise NotImplementedError("misses_for_budget")


class HeartbeatMonitor:
    """The streaming form of detect, for a collector process.

    start is clock() at construction; beat(rank) stamps a heartbeat with clock();
    stopped() returns, as a list, what detect would for every beat so far at
    now = clock(), read once per check.  beat is O(1); stopped() is
    O(1 + ranks reported), amortized, never O(world_size).  ValueError for a
    negative world_size or timeout, a rank out of range, and a clock reading
    earlier than the last one accepted, in beat() and in stopped() alike (a
    refused call changes nothing, its reading included).
    """

    def __init__(
        self, world_size: int, timeout: int, *, clock: Callable[[], int] = time.monotonic_ns
    ) -> None:
        raise NotImplementedError("HeartbeatMonitor")

    def beat(self, rank: int) -> None:
        """Record a heartbeat from `rank`, received now."""
        raise NotImplementedError("HeartbeatMonitor.beat")

    def stopped(self) -> list[Stopped]:
        """The ranks silent for more than the timeout now, longest silence first."""
        raise NotImplementedError("HeartbeatMonitor.stopped")
