"""``python -m variants batch``: what the batcher's knobs buy, as tables and text bars.

Seeded and deterministic: the same flags print the same figures.
"""

from __future__ import annotations

import argparse
import json
from typing import Any

from solution.unix import integer
from variants.batcher.simulation import (
    RATES,
    SIZES,
    WAITS,
    Load,
    Result,
    capacity,
    grid,
    padding,
)

BAR = 40


def add_parser(commands: Any) -> None:
    """Register the ``batch`` subcommand."""
    command = commands.add_parser(
        "batch",
        help="what batch size, wait and length buckets buy: a simulated GPU",
        description="A seeded simulation of one GPU serving a Poisson stream of requests with "
        "log-normal lengths; a batch costs a launch plus a cost per padded token.",
    )
    command.add_argument("--seed", type=integer, default=1, help="the arrivals' seed (1)")
    command.add_argument("--json", action="store_true", help="print JSON instead of text")
    command.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    tables = {rate: grid(Load(rate=rate), seed=args.seed) for rate in RATES}
    most, padded = capacity(seed=args.seed), padding(seed=args.seed)
    if args.json:
        print(json.dumps(_as_json(tables, most, padded)))
        return 0
    load = Load()
    lines = [
        f"One GPU; {load.requests:,} requests a run, Poisson arrivals, lengths log-normal "
        f"(median {load.median_tokens} tokens); a batch costs {load.launch} ticks + "
        f"{load.per_token} a padded token.",
    ]
    for rate, table in tables.items():
        lines += [
            "",
            f"at {rate} requests a tick: latency p50 / p99 in ticks, and the GPU's busy share,",
            "by max batch size (rows) and max wait (columns):",
            f"{'size':>6}" + "".join(f"{f'wait {w}':>22}" for w in WAITS),
        ]
        for size in SIZES:
            cells = "".join(f"{_cell(table[size, w]):>22}" for w in WAITS)
            lines.append(f"{size:>6}{cells}")
    top = max(result.throughput for result in most.values())
    lines += ["", "capacity, requests per 1,000 ticks with the queue never empty (padding share):"]
    for size, result in most.items():
        bar = "#" * round(result.throughput / top * BAR)
        lines.append(
            f"{size:>6}  {result.throughput:>6.1f}  ({result.padding_share:.0%} padding)  {bar}"
        )
    top = max(result.throughput for result in padded.values())
    lines += ["", "the same token budget (4,096 padded tokens), first come against length buckets:"]
    for name, result in padded.items():
        bar = "#" * round(result.throughput / top * BAR)
        lines.append(
            f"  {name:<15} {result.padding_share:>4.0%} padding  "
            f"{result.throughput:>6.1f} per 1,000 ticks  {bar}"
        )
    print("\n".join(lines))
    return 0


def _cell(result: Result) -> str:
    return f"{result.p50:,} / {result.p99:,} {result.gpu_share:>4.0%}"


def _as_json(
    tables: dict[float, dict[tuple[int, int], Result]],
    most: dict[int, Result],
    padded: dict[str, Result],
) -> dict[str, Any]:
    def summary(result: Result) -> dict[str, Any]:
        return {
            "throughput": round(result.throughput, 3),
            "p50": result.p50,
            "p99": result.p99,
            "padding_share": round(result.padding_share, 4),
            "gpu_share": round(result.gpu_share, 4),
        }

    return {
        "grid": [
            {"rate": rate, "size": s, "wait": w, **summary(r)}
            for rate, table in tables.items()
            for (s, w), r in table.items()
        ],
        "capacity": [{"size": s, **summary(r)} for s, r in most.items()],
        "padding": {name: summary(r) for name, r in padded.items()},
    }
