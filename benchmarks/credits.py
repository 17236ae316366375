"""A credit scheduler's decisions beside a naive rescan of every waiting job, in one run.

    python3 benchmarks/credits.py            # 10k to 1M operations
    python3 benchmarks/credits.py --smoke    # small, for CI

The workload: eight accounts with plenty of credits, 16 slots; operations
come in rounds of three submissions, one `schedule`, and the finish of two
running jobs, so the queue grows by about one job a round: a million
operations leave some 170,000 waiting.  The naive scheduler is the
reference with one change: to find an account's next job it looks at every
job of the account still waiting (and drops those that ended since).
Printed: seconds for each, their ratio, and the reference's scaling from
100k to 1M operations (10x the operations; O(log n) decisions take a little
over 10x the time, a rescan about 100x).
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Hashable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from variants.credits import Config, Job, Scheduler
from variants.credits.core import _Account, _Job

ACCOUNTS = 8


class Naive(Scheduler):
    """The reference, but each account's next job is found by looking at its every waiting job.

    Its waiting jobs are kept apart, an ended one dropped at the next look,
    so the rescan reads the jobs still waiting, never the jobs of the past.
    """

    def __init__(self, config: Config) -> None:
        super().__init__(config)
        self._waiting: dict[str, dict[Hashable, _Job]] = {}

    def submit(self, job: Job) -> None:
        super().submit(job)
        self._waiting.setdefault(job.account, {})[job.id] = self._jobs[job.id]

    def _head(self, account: _Account) -> _Job | None:
        waiting = self._waiting.get(account.name, {})
        ended = [i for i, entry in waiting.items() if entry.state not in ("queued", "reserved")]
        for job_id in ended:
            del waiting[job_id]
        return min(waiting.values(), key=lambda e: (-e.job.priority, e.seq), default=None)


def workload(make: type[Scheduler], operations: int) -> tuple[float, int]:
    """Seconds for `operations` operations; the jobs still waiting at the end."""
    scheduler = make(Config(slots=16))
    for a in range(ACCOUNTS):
        scheduler.open_account(f"acct{a}", weight=1 + a % 3)
        scheduler.deposit(f"acct{a}", 10**15)
    done, submitted, started, now, running = 0, 0, 0, 0, list[Hashable]()
    began = time.perf_counter()
    while done < operations:
        for _ in range(3):
            account = f"acct{submitted % ACCOUNTS}"
            scheduler.submit(Job(submitted, account, 1 + submitted % 13, submitted % 4))
            submitted += 1
        starts = scheduler.schedule(now=now)
        started += len(starts)
        running += starts
        for job_id in running[:2]:
            scheduler.finish(job_id, 1)
        del running[:2]
        done += 6
        now += 1
    return time.perf_counter() - began, submitted - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--smoke", action="store_true", help="small, for CI")
    smoke = parser.parse_args().smoke
    sizes = [2_000, 4_000] if smoke else [10_000, 30_000, 100_000, 1_000_000]
    naive_up_to = 4_000 if smoke else 30_000
    print(f"{'operations':>11} {'waiting':>9} {'reference':>10} {'naive':>10} {'naive / ref':>12}")
    seconds: dict[int, float] = {}
    for size in sizes:
        ours, waiting = workload(Scheduler, size)
        seconds[size] = ours
        if size <= naive_up_to:
            naive, _ = workload(Naive, size)
            shown, ratio = f"{naive:>9.2f}s", f"{naive / ours:>11,.0f}x"
        else:
            shown, ratio = f"{'-':>10}", f"{'-':>12}"
        print(f"{size:>11,} {waiting:>9,} {ours:>9.2f}s {shown} {ratio}")
    if not smoke:
        growth = seconds[1_000_000] / seconds[100_000]
        print(f"the reference, 100k to 1M operations: {growth:.1f}x the time")


if __name__ == "__main__":
    main()
