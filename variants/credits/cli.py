"""``python -m variants credits``: the GPUs' shares by priority and by fair share, as bars."""

from __future__ import annotations

import argparse
import json
from typing import Any

from solution.unix import integer
from variants.credits.simulation import ACCOUNTS, SLOTS, TICKS, Share, contend

BAR = 40


def add_parser(commands: Any) -> None:
    command = commands.add_parser(
        "credits",
        help="three accounts contending for GPUs: shares by priority and by fair share",
        description="A seeded simulation: three accounts always backlogged, one of them at "
        "priority 9, on 8 GPUs; each account's share of the GPU time, by priority and with "
        "weighted fair share.",
    )
    command.add_argument("--seed", type=integer, default=1, help="the simulation's seed (1)")
    command.add_argument("--json", action="store_true", help="print JSON instead of text")
    command.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    runs = {
        mode: contend(fair=mode == "fair share", seed=args.seed)
        for mode in ("priority", "fair share")
    }
    if args.json:
        print(json.dumps({mode: [_as_json(s) for s in shares] for mode, shares in runs.items()}))
        return 0
    accounts = ", ".join(
        f"{name} (weight {w}{', priority 9' if p else ''})" for name, w, p in ACCOUNTS
    )
    lines = [f"{SLOTS} GPUs for {TICKS:,} ticks; {accounts}; every account always backlogged."]
    for mode, shares in runs.items():
        lines += ["", f"by {mode}:"]
        for share in shares:
            bar = "#" * round(share.share * BAR)
            lines.append(
                f"  {share.account:<9} {float(share.share):>6.1%} of the GPU time, "
                f"{share.jobs:>5,} jobs, longest wait {share.longest_wait:>6,} ticks  {bar}"
            )
    print("\n".join(lines))
    return 0


def _as_json(share: Share) -> dict[str, Any]:
    return {
        "account": share.account,
        "weight": share.weight,
        "share": float(share.share),
        "jobs": share.jobs,
        "longest_wait": share.longest_wait,
    }
