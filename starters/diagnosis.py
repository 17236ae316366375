"""The detector's follow-ups: hung or dead, a collector fault or many deaths, phi accrual.

The kata's command line copies this file and gives it to you a step at a time:

    python -m kata start diagnosis   # my_diagnosis.py, and step 1
    python -m kata check   # the steps written so far, then the next
    python -m kata hint    # stuck? a hint (three to a step)

(or, all at once: python -m pytest --impl my_diagnosis.py --rubric).

Each function and class is scored on its own; leave one unwritten and its
tests are reported as not attempted.  Standard library only.  The full
contract, with the reasons behind each rule, is solution/diagnosis/README.md.
Every time is an integer tick of the collector's monotonic clock.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from fractions import Fraction
from typing import NamedTuple


class Beat(NamedTuple):
    """A heartbeat that carries the rank's progress (steps or collectives completed)."""

    rank: int
    sent_at: int  # the sender's clock: never compared
    received_at: int  # the collector's clock
    progress: int  # >= 0


class Stopped(NamedTuple):
    rank: int
    last_heard: int | None
    silence: int


class Hung(NamedTuple):
    rank: int
    progress: int  # the highest progress heard from it
    since: int  # received_at of the first heartbeat that carried it
    stalled: int  # now - since


class Diagnosis(NamedTuple):
    stopped: list[Stopped]
    hung: list[Hung]


class CollectorFault(NamedTuple):
    ranks: tuple[int, ...]  # ascending
    fell_silent: tuple[int, int]  # the earliest and latest start of their silences


class Guarded(NamedTuple):
    stopped: list[Stopped]
    fault: CollectorFault | None


# --- 1. Hung or dead ----------------------------------------------------------------------


def diagnose(
    beats: Iterable[Beat],
    *,
    world_size: int,
    start: int,
    now: int,
    timeout: int,
    stall_timeout: int,
) -> Diagnosis:
    """stopped: exactly what `detect` reports (silence > timeout, longest first).

    hung: the ranks heard and not stopped whose highest progress heard by `now`
    was first heard more than `stall_timeout` ticks ago; lowest progress first,
    then the longest stalled, then by rank.  ValueError as `detect`, and for a
    negative stall_timeout or progress.  `beats` is any iterable, read once and
    never modified.
    """
    raise NotImplementedError("diagnose")


# --- 2. Mass silence ------------------------------------------------------------------------


def guard_mass_silence(
    stopped: Iterable[Stopped],
    *,
    world_size: int,
    start: int,
    window: int,
    fraction: Fraction | float,
) -> Guarded:
    """A rank's silence began at last_heard (start if never heard).  The densest group of
    ranks whose silences began within `window` ticks of each other (the earliest if
    several) is a collector fault when it has more than fraction * world_size ranks (a
    float fraction at its exact binary value) and at least two; the rest of the report
    stays, in order.  ValueError for a fraction outside (0, 1], a negative window, a rank
    outside the world or reported twice.  `stopped` is any iterable, read once.
    """
    raise NotImplementedError("guard_mass_silence")


# --- 3. Phi accrual -------------------------------------------------------------------------


class PhiAccrual:
    """Akka's phi accrual failure detector for one process; defaults are Akka cluster's, in ms.

    History: the first heartbeat records first_heartbeat_estimate -/+ a quarter of it;
    each later one records its interval if phi < threshold when it arrived; the last
    max_sample_size intervals are kept.  phi = log10(1 + exp(z)), z = y * (1.5976 +
    0.070566 * y**2), y = (silence - (mean + acceptable_heartbeat_pause)) / max(population
    deviation, min_std_deviation); 0.0 before any heartbeat.  The clock is read once per
    call; a reading earlier than the last raises ValueError; so do impossible settings.
    """

    def __init__(
        self,
        *,
        clock: Callable[[], int] = lambda: time.monotonic_ns() // 1_000_000,
        threshold: float = 8.0,
        max_sample_size: int = 1_000,
        min_std_deviation: int = 100,
        acceptable_heartbeat_pause: int = 3_000,
        first_heartbeat_estimate: int = 1_000,
    ) -> None:
        raise NotImplementedError("PhiAccrual")

    def heartbeat(self) -> None:
        raise NotImplementedError("PhiAccrual.heartbeat")

    def phi(self) -> float:
        raise NotImplementedError("PhiAccrual.phi")

    def is_available(self) -> bool:
        raise NotImplementedError("PhiAccrual.is_available")
