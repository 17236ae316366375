"""``python -m variants retry``: the simulations, as tables and text charts.

Seeded and deterministic: the same flags print the same figures.
"""

from __future__ import annotations

import argparse
import json
from fractions import Fraction
from typing import Any

from solution.unix import bounded, integer
from variants.retry.simulation import (
    BUDGETS,
    SCHEDULES,
    STUDY_SCHEDULES,
    bars,
    contention_table,
    load_chart,
    outage,
    study_table,
)

SIZES = [10, 25, 50, 75, 100]
STUDY_SIZES = list(range(10, 101, 10))
MAX_SEEDS = 1_000  # about two minutes of simulation; more is a typo


def add_parser(commands: Any) -> None:
    """Register the ``retry`` subcommand."""
    command = commands.add_parser(
        "retry",
        help="what jitter and budgets do: contention and outage simulations",
        description="Seeded simulations: N clients contending for one resource under "
        "optimistic concurrency, retrying with each backoff schedule (the AWS Architecture "
        "Blog's setup, and this project's simpler model); and a server that fails every call "
        "for a while, with clients retrying with and without a budget.",
    )
    command.add_argument(
        "--seeds",
        type=bounded(1, MAX_SEEDS),
        default=20,
        help=f"runs averaged per cell (20; at most {MAX_SEEDS:,})",
    )
    command.add_argument("--seed", type=integer, default=1, help="the first seed (1)")
    command.add_argument("--json", action="store_true", help="print JSON instead of text")
    command.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    studied = study_table(STUDY_SIZES, seeds=args.seeds, first_seed=args.seed)
    table = contention_table(SIZES, seeds=args.seeds, first_seed=args.seed)
    outages = [outage(budget, seed=args.seed) for budget in BUDGETS]
    if args.json:
        print(json.dumps(_as_json(studied, table, outages)))
        return 0
    lines = [*_study_text(studied, args.seeds), "", *_contention_text(table, args.seeds)]
    print("\n".join([*lines, "", *_outage_text(outages)]))
    return 0


def _study_text(table: dict[str, list[tuple[int, Fraction, Fraction]]], seeds: int) -> list[str]:
    lines = [
        "The AWS Architecture Blog's experiment, in its own setup: N clients each update one row "
        "once (optimistic concurrency),",
        f"every hop |N(10, 2)| ms, base 5 ms, cap 2 s; mean of {seeds} runs",
        f"{'schedule':<22}" + "".join(f"{f'N={n}':>8}" for n in STUDY_SIZES),
        "calls (writes, conflicts included):",
    ]
    lines += [_row(s, [calls for _, calls, _ in table[s]], 8) for s in STUDY_SCHEDULES]
    lines.append("ms until the last client's write succeeded:")
    lines += [_row(s, [done for _, _, done in table[s]], 8) for s in STUDY_SCHEDULES]
    return lines


def _contention_text(
    table: dict[str, list[tuple[int, Fraction, Fraction]]], seeds: int
) -> list[str]:
    lines = [
        "This project's model: every client starts at tick 0, a write takes 10 ticks, no "
        f"network; mean of {seeds} runs",
        f"{'schedule':<22}" + "".join(f"{f'N={n}':>16}" for n in SIZES),
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


def _row(schedule: str, values: list[Fraction], width: int = 16) -> str:
    return f"  {schedule:<20}" + "".join(f"{float(value):>{width},.0f}" for value in values)


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
    studied: dict[str, list[tuple[int, Fraction, Fraction]]],
    table: dict[str, list[tuple[int, Fraction, Fraction]]],
    outages: list[Any],
) -> dict[str, Any]:
    return {
        "study": {
            schedule: [
                {"clients": n, "calls": str(calls), "completion_ms": str(done)}
                for n, calls, done in rows
            ]
            for schedule, rows in studied.items()
        },
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
