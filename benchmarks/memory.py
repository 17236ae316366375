"""The planner's time per sequence, beside a naive planner that rescans the open micro-batch.

    python3 benchmarks/memory.py            # 10,000 and 100,000 sequences
    python3 benchmarks/memory.py --smoke    # small, for CI

The setting is the study's (`variants/memory/study.py`): a 1.3B-parameter
model on a GPU of 80 GB, log-normal lengths around 512 tokens capped at
8,192, windows of 4,096 sequences, steps of 2**20 tokens.  `plan_batches`
sorts each window and packs it in one pass: shortest first, the sequence
that joins is the micro-batch's longest, so the fit is one `peak_bytes`.
The naive planner is the same but for that: it finds the open
micro-batch's longest by rescanning its members for every sequence that
asks to join, O(n * batch) in all.  Both make the same plan, which the run
asserts.  With selective recomputation a micro-batch holds some 35,000
padded tokens; with full recomputation some 600,000, and the rescan grows
with it.  Printed: microseconds of CPU time per sequence, the least of
three tries, side by side in one run; the naive planner over the reference; and each one's time
per sequence at 10n sequences over its time at n (flat: the cost is per
sequence, for both, at any n: what the rescan grows with is the micro-batch).
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from variants.memory import MicroBatch, Plan, Shape, peak_bytes, plan_batches
from variants.memory.study import MEMORY, SHAPE, TOKENS_PER_STEP, lengths

WINDOW = 4_096
Planner = Callable[[Sequence[int], str], Plan]


def naive(given: Sequence[int], recompute: str) -> Plan:
    """The reference's plan, with the open micro-batch's longest found by a rescan."""
    batches: list[MicroBatch] = []
    for begin in range(0, len(given), WINDOW):
        order = sorted(range(begin, min(begin + WINDOW, len(given))), key=given.__getitem__)
        current: list[int] = []
        for position in order:
            longest = max([given[p] for p in current] + [given[position]])  # the rescan
            if _peak(SHAPE, longest, len(current) + 1, recompute) <= MEMORY:
                current.append(position)
                continue
            if _peak(SHAPE, given[position], 1, recompute) > MEMORY:
                raise ValueError(f"sequence {position} ({given[position]} tokens) fits nowhere")
            batches.append(_closed(current, given, recompute))
            current = [position]
        if current:
            batches.append(_closed(current, given, recompute))
    steps: list[tuple[MicroBatch, ...]] = []
    step: list[MicroBatch] = []
    tokens = 0
    for batch in batches:
        step.append(batch)
        tokens += sum(given[p] for p in batch.sequences)
        if tokens >= TOKENS_PER_STEP:
            steps.append(tuple(step))
            step, tokens = [], 0
    if step:
        steps.append(tuple(step))
    padded = sum(b.padded_length * len(b.sequences) for b in batches)
    return Plan(tuple(steps), sum(given), padded)


def _peak(shape: Shape, seq_len: int, batch: int, recompute: str) -> int:
    return peak_bytes(shape, seq_len=seq_len, batch=batch, recompute=recompute)


def _closed(members: list[int], given: Sequence[int], recompute: str) -> MicroBatch:
    longest = max(given[p] for p in members)
    return MicroBatch(tuple(members), longest, _peak(SHAPE, longest, len(members), recompute))


def reference(given: Sequence[int], recompute: str) -> Plan:
    return plan_batches(
        given,
        SHAPE,
        memory=MEMORY,
        recompute=recompute,
        window=WINDOW,
        tokens_per_step=TOKENS_PER_STEP,
    )


def per_sequence_us(planner: Planner, given: list[int], recompute: str, tries: int) -> float:
    """The least of `tries` runs, in microseconds of this thread's CPU time per sequence:
    another job on the machine lengthens the wall clock, not the CPU time."""
    best = float("inf")
    for _ in range(tries):
        began = time.thread_time_ns()
        planner(given, recompute)
        best = min(best, (time.thread_time_ns() - began) / len(given) / 1_000)
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0], allow_abbrev=False)
    parser.add_argument("--smoke", action="store_true", help="small sizes, for CI")
    args = parser.parse_args()
    sizes, tries = ((500, 5_000), 1) if args.smoke else ((10_000, 100_000), 3)
    print(
        f"plan_batches beside a rescan of the open micro-batch: window {WINDOW:,}, "
        f"{MEMORY // 10**9} GB, CPU us per sequence, best of {tries}"
    )
    header = ("recompute", "sequences", "per micro-batch", "plan_batches", "naive", "naive/plan")
    print("{:>10} {:>10} {:>16} {:>13} {:>9} {:>11}".format(*header))
    scaling: list[str] = []
    for recompute in ("selective", "full"):
        times: list[tuple[float, float]] = []
        for n in sizes:
            given = lengths(n, seed=1)
            plan = reference(given, recompute)
            if naive(given, recompute) != plan:
                raise AssertionError(f"the naive planner's plan differs at {n:,} sequences")
            batches = sum(len(step) for step in plan.steps)
            ours = per_sequence_us(reference, given, recompute, tries)
            theirs = per_sequence_us(naive, given, recompute, tries)
            times.append((ours, theirs))
            print(
                f"{recompute:>10} {n:>10,} {n / batches:>16.1f} {ours:>11.2f}us "
                f"{theirs:>7.2f}us {theirs / ours:>10.1f}x"
            )
        (ours, theirs), (ours_10n, theirs_10n) = times
        scaling.append(
            f"{recompute}: plan_batches x{ours_10n / ours:.2f}, naive x{theirs_10n / theirs:.2f}"
        )
    print(f"per sequence, {sizes[1]:,} sequences over {sizes[0]:,}: " + "; ".join(scaling))


if __name__ == "__main__":
    main()
