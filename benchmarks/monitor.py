"""What a HeartbeatMonitor's beat and check cost, measured side by side in one run.

    python3 benchmarks/monitor.py            # 10 ranks to 1,000,000
    python3 benchmarks/monitor.py --smoke    # small sizes, for CI

Checks: every rank has beaten and nobody is silent, the steady state of a
healthy job.  The monitor's check walks from the longest-silent rank and
stops at the first within the timeout, so it should cost the same at every
size; the naive check (scan every rank's last beat) grows with the world.
Printed as nanoseconds per check and as ratios to the 10-rank monitor.

Phi accrual: a detector per rank, each beaten once a second, beside the
monitor's beats; and a check of a healthy job, which for phi means asking
every rank's detector (each has its own threshold), beside the monitor's
check, which stops at the first rank within the timeout; and the check of a
`PhiMonitor`, which keeps ranks by the time they could first be suspected
and asks only those whose time has come: none, in a healthy job.

Beats: what a collector does for every heartbeat of every rank.  A beat is
set beside the least any collector does, a bare ``last[rank] = clock()``
store into a dict, and beside the alternative the monitor was weighed
against: a queue of receipts (each beat stores its time and appends a
``(rank, time)`` tuple; a check drops the stale entries from the front),
all with the same clock (``time.monotonic_ns``), the ranks beating
round-robin; printed as nanoseconds per beat and as ratios to the store.
"""

from __future__ import annotations

import argparse
import functools
import sys
import time
from collections import deque
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from solution import HeartbeatMonitor
from solution.diagnosis import PhiAccrual
from solution.diagnosis.phi_monitor import PhiMonitor

BEAT_WIDTHS = (10, 13, 10, 6, 16, 6)


class Clock:
    def __init__(self) -> None:
        self.now = 0

    def __call__(self) -> int:
        return self.now


def per_call_ns(check: Callable[[], object], repeat: int) -> float:
    """Best of five runs of `repeat` calls, in ns per call."""
    best = float("inf")
    for _ in range(5):
        began = time.perf_counter_ns()
        for _ in range(repeat):
            check()
        best = min(best, (time.perf_counter_ns() - began) / repeat)
    return best


def healthy(world_size: int, timeout: int = 5) -> tuple[HeartbeatMonitor, dict[int, int]]:
    """A monitor every rank has just beaten, and the same state as a plain dict."""
    clock = Clock()
    monitor = HeartbeatMonitor(world_size, timeout, clock=clock)
    for rank in range(world_size):
        monitor.beat(rank)
    return monitor, dict.fromkeys(range(world_size), clock.now)


def naive_check(last_heard: dict[int, int], now: int, timeout: int) -> list[int]:
    """O(world_size): look at every rank."""
    return [rank for rank, heard in last_heard.items() if now - heard > timeout]


class ReceiptQueue:
    """The alternative weighed against the monitor: the latest time per rank, and a queue
    of every receipt, stale ones dropped lazily (a check is amortized O(1) too)."""

    def __init__(self, clock: Callable[[], int]) -> None:
        self.clock, self.last = clock, dict[int, int]()
        self.receipts: deque[tuple[int, int]] = deque()

    def beat(self, rank: int) -> None:
        now = self.clock()
        self.last[rank] = now
        self.receipts.append((rank, now))


def beats(world_size: int, rounds: int) -> tuple[float, float, float]:
    """ns per beat of the monitor, a receipt queue and a bare dict store: best of five."""
    ranks = list(range(world_size)) * rounds
    clock = time.monotonic_ns

    def bare() -> None:
        last: dict[int, int] = {}
        for rank in ranks:
            last[rank] = clock()

    def timed(beat: Callable[[int], None]) -> float:
        def run() -> None:
            for rank in ranks:
                beat(rank)

        return per_call_ns(run, 1) / len(ranks)

    monitor = timed(HeartbeatMonitor(world_size, 5 * 10**9, clock=clock).beat)
    return monitor, timed(ReceiptQueue(clock).beat), per_call_ns(bare, 1) / len(ranks)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--smoke", action="store_true", help="small sizes, for CI")
    smoke = parser.parse_args().smoke
    heads = ("ranks", "dict store ns", "monitor ns", "ratio", "receipt queue ns", "ratio")
    print("  ".join(f"{head:>{width}}" for head, width in zip(heads, BEAT_WIDTHS, strict=True)))
    for size in [1_024] if smoke else [1_024, 100_000]:
        ours, queue, bare = beats(size, rounds=20 if smoke else max(1, 2_000_000 // size))
        cells = [f"{size:,}", f"{bare:.0f}", f"{ours:.0f}", f"{ours / bare:.2f}x"]
        cells += [f"{queue:.0f}", f"{queue / bare:.2f}x"]
        print("  ".join(f"{cell:>{width}}" for cell, width in zip(cells, BEAT_WIDTHS, strict=True)))
    print()
    sizes = [10, 1_000, 10_000] if smoke else [10, 1_000, 100_000, 1_000_000]
    print(f"{'ranks':>10}  {'monitor ns/check':>17}  {'x 10 ranks':>10}  {'naive ns/check':>15}")
    baseline = None
    for size in sizes:
        monitor, table = healthy(size)
        monitor_ns = per_call_ns(monitor.stopped, 2_000)
        naive = functools.partial(naive_check, table, 0, 5)
        naive_ns = per_call_ns(naive, max(1, 20_000 // size))
        baseline = baseline or monitor_ns
        print(
            f"{size:>10,}  {monitor_ns:>17,.0f}  {monitor_ns / baseline:>10.2f}  {naive_ns:>15,.0f}"
        )
    print()
    size = 64 if smoke else 1_024
    phi_beat, monitor_beat, phi_check, monitor_check, heap_check = phi_costs(
        size, 3 if smoke else 30
    )
    print(f"{'ranks':>10}  {'':>14}{'phi accrual':>14}  {'monitor':>12}  {'ratio':>8}")
    print(
        f"{size:>10,}  {'ns per beat':>14}{phi_beat:>14,.0f}  {monitor_beat:>12,.0f}"
        f"  {phi_beat / monitor_beat:>7.1f}x"
    )
    print(
        f"{'':>10}  {'ns per check':>14}{phi_check:>14,.0f}  {monitor_check:>12,.0f}"
        f"  {phi_check / monitor_check:>7,.0f}x"
    )
    print(
        f"{'':>10}  {'PhiMonitor':>14}{heap_check:>14,.0f}  {monitor_check:>12,.0f}"
        f"  {heap_check / monitor_check:>7,.1f}x   (ns per check, ranks kept by when"
        " they could be suspected)"
    )


def phi_costs(world_size: int, rounds: int) -> tuple[float, float, float, float, float]:
    """ns per beat and per check: PhiAccrual (one per rank) beside the monitor, one clock;
    and the check of a PhiMonitor, which asks only the ranks whose time has come."""
    clock = Clock()
    detectors = [PhiAccrual(clock=clock) for _ in range(world_size)]
    monitor = HeartbeatMonitor(world_size, 5_000, clock=clock)
    heap = PhiMonitor(world_size, clock=clock)

    def phi_beats() -> None:
        for _ in range(rounds):
            clock.now += 1_000
            for detector in detectors:
                detector.heartbeat()

    def monitor_beats() -> None:
        for _ in range(rounds):
            clock.now += 1_000
            for rank in range(world_size):
                monitor.beat(rank)

    def heap_beats() -> None:  # at the monitor's last beat: the same healthy job
        for rank in range(world_size):
            heap.beat(rank)

    beats = world_size * rounds
    phi_beat = per_call_ns(phi_beats, 1) / beats
    monitor_beat = per_call_ns(monitor_beats, 1) / beats
    heap_beats()
    clock.now += 500

    def phi_check() -> None:  # each rank has its own threshold: ask every one
        for detector in detectors:
            detector.is_available()

    return (
        phi_beat,
        monitor_beat,
        per_call_ns(phi_check, 3),
        per_call_ns(monitor.stopped, 2_000),
        per_call_ns(heap.suspected, 2_000),
    )


if __name__ == "__main__":
    main()
