"""``python -m variants quotas``: a day of three tenants under four policies, as text charts."""

from __future__ import annotations

import argparse
import json
from fractions import Fraction
from typing import Any

from solution.unix import integer
from variants.quotas.simulation import (
    CAPACITY,
    DAY,
    GUARD,
    MINUTE,
    POLICIES,
    QUOTAS,
    Policy,
    Result,
    TenantDay,
    simulate,
)

# What each # stands for, one scale for every policy so that the bars compare down the page.
PER_UTILIZATION = Fraction(1, 50)  # of the GPU-seconds
PER_WAIT = 10 * MINUTE  # ticks
PER_QUOTA = Fraction(1, 8)  # of the tenant's quota, used on average
PER_PREEMPTION = Fraction(1, 4)  # preemptions an hour
PER_LOST = 1  # GPU-hour
WAIT_BAR = 10  # at most, then a +: batch's hours under hard quotas would drown the rest

WORKLOAD = {
    "research": "a burst every 3 h of 1 x 32, 2 x 16 or 4 x 8 GPUs for 1-2 h, checkpoints 30 min",
    "prod": "inference (1-4 GPUs, not preemptible) and fine-tuning (2-8), one per 20 min",
    "batch": "1-4 GPUs for 5-40 min, no checkpoints, one per 2.5 min",
}


def add_parser(commands: Any) -> None:
    """Register the ``quotas`` subcommand."""
    command = commands.add_parser(
        "quotas",
        help="three tenants sharing 64 GPUs: hard quotas, borrowing, reclaim, the guard",
        description="A seeded simulation of one day on 64 GPUs: research (bursts of training "
        "jobs), prod (steady inference and fine-tuning) and batch (small jobs that borrow), "
        "the same arrivals under hard quotas, borrowing without reclaim, borrowing with "
        "reclaim and a min_run guard, and reclaim without the guard.",
    )
    command.add_argument("--seed", type=integer, default=1, help="the simulation's seed (1)")
    command.add_argument("--json", action="store_true", help="print JSON instead of text")
    command.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    results = [(policy, simulate(policy, seed=args.seed)) for policy in POLICIES]
    if args.json:
        print(json.dumps({p.name: _as_json(p, result) for p, result in results}))
        return 0
    lines = _preamble(args.seed)
    for policy, result in results:
        lines += ["", *_policy_text(policy, result)]
    print("\n".join(line.rstrip() for line in lines))  # an empty bar leaves no spaces
    return 0


def _preamble(seed: int) -> list[str]:
    """The setting, the tenants' workloads and the bars' scales."""
    lines = [
        f"{CAPACITY} GPUs for a day ({DAY:,} s), the same arrivals under each policy (seed {seed}):"
    ]
    lines += [f"  {name:<9} quota {quota:>2}: {WORKLOAD[name]}" for name, quota in QUOTAS]
    return [
        *lines,
        f"Each # is {float(PER_UTILIZATION):.0%} of the GPU-seconds, {PER_WAIT // MINUTE} min of "
        f"waiting (+: over {WAIT_BAR}), {PER_QUOTA} of a quota used,",
        f"{PER_PREEMPTION} preemption an hour, {PER_LOST} GPU-hour lost; a wait is from "
        "submission to first start.",
    ]


def _policy_text(policy: Policy, result: Result) -> list[str]:
    """One policy's block: utilization, each tenant's waits and use of its quota, the cost."""
    limit = None if policy.borrowing else 0
    early = sum(tenant.early for tenant in result.tenants)
    return [
        f"{policy.name} (borrowing_limit={limit}, reclaim={policy.reclaim}, "
        f"min_run={policy.min_run}):",
        f"  utilization {float(result.utilization):>6.1%} (work kept "
        f"{float(result.useful):.1%})  {_bar(result.utilization, PER_UTILIZATION)}",
        *(_tenant_text(tenant) for tenant in result.tenants),
        f"  preemptions {float(result.preemptions_per_hour):>5.1f} an hour ({result.preemptions}, "
        f"{early} within {GUARD // MINUTE} min of a start)  "
        f"{_bar(result.preemptions_per_hour, PER_PREEMPTION)}",
        f"  GPU-hours lost {float(result.lost_gpu_hours):>5.1f}  "
        f"{_bar(result.lost_gpu_hours, PER_LOST)}",
    ]


def _tenant_text(tenant: TenantDay) -> str:
    """A tenant's line: wait p50 and p99 in seconds, its mean use of its quota."""
    p50, p99 = (_bar(Fraction(w), PER_WAIT, WAIT_BAR) for w in (tenant.wait_p50, tenant.wait_p99))
    return (
        f"  {tenant.name:<9} wait p50 {tenant.wait_p50:>6,} s {p50:<{WAIT_BAR + 1}} "
        f"p99 {tenant.wait_p99:>6,} s {p99:<{WAIT_BAR + 1}} "
        f"used {float(tenant.of_quota):.2f} of quota {_bar(tenant.of_quota, PER_QUOTA)}"
    )


def _bar(value: Fraction, per: Fraction | int, most: int | None = None) -> str:
    """`value / per` #s, rounded; at most `most` of them then a + (None: no cap)."""
    count = round(value / per)
    return "#" * count if most is None or count <= most else "#" * most + "+"


def _as_json(policy: Policy, result: Result) -> dict[str, Any]:
    return {
        "borrowing": policy.borrowing,
        "reclaim": policy.reclaim,
        "min_run": policy.min_run,
        "utilization": float(result.utilization),
        "useful": float(result.useful),
        "preemptions": result.preemptions,
        "preemptions_per_hour": float(result.preemptions_per_hour),
        "lost_gpu_hours": float(result.lost_gpu_hours),
        "tenants": [
            {
                "name": t.name,
                "quota": t.quota,
                "submitted": t.submitted,
                "finished": t.finished,
                "wait_p50": t.wait_p50,
                "wait_p99": t.wait_p99,
                "share": float(t.share),
                "quota_share": float(t.quota_share),
                "of_quota": float(t.of_quota),
                "preemptions": t.preemptions,
                "early": t.early,
                "lost_gpu_hours": float(t.lost_gpu_hours),
            }
            for t in result.tenants
        ],
    }
