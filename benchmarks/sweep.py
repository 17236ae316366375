"""The sweep's cost, measured side by side in one run.

    python3 benchmarks/sweep.py            # 100k and 1M intervals (pip install -e '.[bench]'
                                           # for the intervaltree column)
    python3 benchmarks/sweep.py --smoke    # 10k intervals, for CI

Utilization per hour of a day on 1,024 GPUs, three ways, on the same data in
one run: the sweep (sort the endpoints once), a naive per-bucket scan (every
interval, every bucket), and an interval tree queried per bucket.  Times are
best of three; ratios are to the sweep.

Whether overlapping_jobs is O(n log n + pairs) is not a time: the kata's
cost check counts it (tests/sweep/test_scaling.py).
"""

from __future__ import annotations

import argparse
import functools
import importlib
import importlib.util
import random
import sys
import time
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from variants.sweep import Busy, Window, utilization

GPUS, DAY, HOUR = 1024, 86_400, 3_600


def day_of_jobs(count: int, seed: int = 7) -> list[Busy]:
    """`count` intervals on 1,024 GPUs over a day, never two at once on a GPU."""
    rng = random.Random(seed)
    per_gpu = -(-count // GPUS)
    slot = DAY // per_gpu
    return [
        Busy(
            gpu,
            f"job{gpu}-{i}",
            i * slot + (offset := rng.randrange(slot // 2)),
            i * slot + offset + rng.randrange(1, slot // 2),
        )
        for gpu in range(GPUS)
        for i in range(per_gpu)
    ][:count]


def naive_scan(busy: list[Busy], horizon: Window, bucket: int = HOUR) -> list[Fraction]:
    """Every bucket looks at every interval: O(n x buckets)."""
    shares = []
    for left in range(horizon.start, horizon.end, bucket):
        right = min(left + bucket, horizon.end)
        used = sum(max(0, min(b.end, right) - max(b.start, left)) for b in busy)
        shares.append(Fraction(used, GPUS * (right - left)))
    return shares


def tree_query(busy: list[Busy], horizon: Window, bucket: int = HOUR) -> list[Fraction]:
    """An interval tree, built once and queried per bucket."""
    from intervaltree import IntervalTree  # the benchmark-only extra; untyped

    # The index as data: a tree is a set, and two GPUs' identical intervals are two intervals.
    tree = IntervalTree.from_tuples(
        (b.start, b.end, i) for i, b in enumerate(busy) if b.start < b.end
    )
    shares = []
    for left in range(horizon.start, horizon.end, bucket):
        right = min(left + bucket, horizon.end)
        used = sum(min(i.end, right) - max(i.begin, left) for i in tree.overlap(left, right))
        shares.append(Fraction(used, GPUS * (right - left)))
    return shares


def best_of(runs: int, work: Callable[[], object]) -> tuple[float, object]:
    best, result = float("inf"), None
    for _ in range(runs):
        began = time.perf_counter()
        result = work()
        best = min(best, time.perf_counter() - began)
    return best, result


def compare(sizes: list[int]) -> None:
    horizon = Window(0, DAY)
    try:
        importlib.import_module("intervaltree")
        ways: dict[str, Callable[[list[Busy], Window], list[Fraction]]] = {
            "naive scan": naive_scan,
            "intervaltree": tree_query,
        }
    except ImportError:
        ways = {"naive scan": naive_scan}
        print("(intervaltree not installed: pip install -e '.[bench]' for its column)")
    print(f"utilization per hour of a day on {GPUS} GPUs, best of 3, seconds (x sweep)")
    print(f"{'intervals':>10}  {'sweep':>8}" + "".join(f"  {name:>20}" for name in ways))
    sweep_times = []
    for size in sizes:
        busy = day_of_jobs(size)
        sweep = functools.partial(utilization, busy, gpus=GPUS, horizon=horizon, bucket=HOUR)
        seconds, want = best_of(3, sweep)
        sweep_times.append(seconds)
        row = f"{size:>10,}  {seconds:>8.2f}"
        for way in ways.values():
            other, got = best_of(1 if size > 200_000 else 3, functools.partial(way, busy, horizon))
            assert got == want, "the ways disagree"
            row += f"  {other:>9.2f} ({other / seconds:>6.1f}x)"
        print(row)
    busy = day_of_jobs(sizes[0] // 10)
    minute = functools.partial(utilization, busy, gpus=GPUS, horizon=horizon, bucket=60)
    seconds, want = best_of(3, minute)
    naive, got = best_of(1, functools.partial(naive_scan, busy, horizon, 60))
    assert got == want, "the ways disagree"
    print(
        f"per minute (1,440 buckets), {len(busy):,} intervals: sweep {seconds:.2f} s, "
        f"naive scan {naive:.2f} s ({naive / seconds:.0f}x): the scan pays per bucket"
    )
    if len(sizes) > 1:
        print(
            f"sweep, {sizes[0]:,} -> {sizes[-1]:,} intervals: "
            f"{sweep_times[-1] / sweep_times[0]:.1f}x the time for "
            f"{sizes[-1] / sizes[0]:.0f}x the intervals"
        )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--smoke", action="store_true", help="small sizes, for CI")
    args = parser.parse_args()
    compare([10_000] if args.smoke else [100_000, 1_000_000])
    return 0


if __name__ == "__main__":
    sys.exit(main())
