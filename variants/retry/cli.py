"""``python -m variants retry``: the two simulations, as tables and text charts.

Seeded and deterministic: the same flags print the same figures.
"""

from __future__ import annotations

import argparse
import json
from fractions import Fraction
from typing import Any

from variants.retry.simulation import (
    BUDGETS,
    SCHEDULES,
    bars,
    contention_table,
    load_chart,
    outage,
)

SIZES = [10, 25, 50, 75, 100]


def add_parser(commands: Any) -> None:
    """Register the ``retry`` subcommand."""
    command = commands.add_parser(
        "retry",
        help="what jitter and budgets do: contention and outage simulations",
        description="Two seeded simulations: N clients contending for one resource under "
        "optimistic concurrency, retrying with each backoff schedule; and a server that fails "
        "every call for a while, with clients retrying with and without a budget.",
    )
    command.add_argument("--seeds", type=int, default=20, help="runs averaged per cell (20)")
    command.add_argument("--seed", type=int, default=1, help="the first seed (1)")
    command.add_argument("--json", action="store_true", help="print JSON instead of text")
    command.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from solution.logfile import InputError

    if args.seeds < 1:
        raise InputError("--seeds must be >= 1")
    table = contention_table(SIZES, seeds=args.seeds, first_seed=args.seed)
    outages = [outage(budget, seed=args.seed) for budget in BUDGETS]
    if args.json:
        print(json.dumps(_as_json(table, outages)))
        return 0
    print("\n".join([*_contention_text(table, args.seeds), "", *_outage_text(outages)]))
    return 0


def _contention_text(
    table: dict[str, list[tuple[int, Fraction, Fraction]]], seeds: int
) -> list[str]:
    lines = [
        f"Contention: N clients write one resource (optimistic concurrency), mean of {seeds} runs",
        f"{'schedule':<20}" + "".join(f"{f'N={n}':>16}" for n in SIZES),
        "calls (the work):",
    ]
    lines += [_row(schedule, [calls for _, calls, _ in table[schedule]]) for schedule in SCHEDULES]
    lines.append("ticks until the last client committed:")
    lines += [_row(schedule, [done for _, _, done in table[schedule]]) for schedule in SCHEDULES]
    largest = [(schedule, table[schedule][-1][1]) for schedule in SCHEDULES]
    lines.append(f"calls at N={SIZES[-1]}:")
    lines += [
        f"  {schedule:<18} {float(calls):>7,.0f}  {bar}"
        for (schedule, calls), bar in zip(largest, bars([c for _, c in largest]), strict=True)
    ]
    return lines


def _row(schedule: str, values: list[Fraction]) -> str:
    return f"  {schedule:<18}" + "".join(f"{float(value):>16,.0f}" for value in values)


def _outage_text(outages: list[Any]) -> list[str]:
    lines = [
        "Outage: every call fails for 3,000 ticks, then the server is back (capacity 1.2x load)",
        "  predicted load with up to n attempts and failure probability f: 1 + f + ... + f**(n-1)",
        "  = 3x for f = 1, n = 3; a 10% budget caps retries at 10% of requests: 1.1x",
        f"  {'retries':<26}{'load during the outage':>24}{'drain after it':>16}",
    ]
    lines += [
        f"  {run.budget:<26}{float(run.amplification):>23.2f}x{run.drain:>10,} ticks"
        for run in outages
    ]
    for run in outages[1:]:
        top = max(run.calls_per_bucket)
        lines += ["", f"attempts per 10 ticks, {run.budget} (top row: {top}; down 2,000-5,000):"]
        lines += [f"  |{row}" for row in load_chart(run)]
    return lines


def _as_json(
    table: dict[str, list[tuple[int, Fraction, Fraction]]], outages: list[Any]
) -> dict[str, Any]:
    return {
        "contention": {
            schedule: [
                {"clients": n, "calls": str(calls), "completion": str(done)}
                for n, calls, done in rows
            ]
            for schedule, rows in table.items()
        },
        "outage": [
            {
                "retries": run.budget,
                "amplification": str(run.amplification),
                "drain": run.drain,
                "offered": run.offered,
                "calls": run.calls,
            }
            for run in outages
        ],
    }
