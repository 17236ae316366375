"""A credit scheduler's decisions beside a naive rescan of every waiting job, and beside a
scan of every account, in one run.

    python3 benchmarks/credits.py            # 10k to 1M operations; 1k to 100k blocked accounts
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

Then the accounts that cannot start: four accounts with credits and jobs
to run, beside B blocked accounts, each with a job waiting that it cannot
start (half of them out of credits, half running their `max_running`),
and one slot free, by priority and fairly.  Measured: microseconds per
decision (a `schedule` that starts one job, then that job's finish), the
least of a few rounds, at 1k and 100k blocked accounts (the decision keeps
the ready accounts apart, so it never looks at a blocked one), beside
`Scanning`, a copy of the previous version's decision, which ranked every
account with a waiting job at each `schedule` and skipped the blocked ones
one by one; both must start the same jobs in the same order.
"""

from __future__ import annotations

import argparse
import heapq
import sys
import time
from collections.abc import Hashable
from fractions import Fraction
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


class Scanning(Scheduler):
    """The reference with the previous version's decision, copied: every account with a
    waiting job is ranked at each `schedule`, and each that cannot start is looked at and
    skipped.  It keeps no ready accounts (`_refresh` does nothing): the scan finds them."""

    def _refresh(self, account: _Account) -> None:
        pass

    def schedule(self, *, now: int) -> list[Hashable]:
        self._check_time(now)
        self._now = now
        while self._expiries and self._expiries[0][0] <= now:
            _, reservation, job_id = heapq.heappop(self._expiries)
            entry = self._jobs[job_id]
            if entry.reservation == reservation:
                self._release(entry)
        started: list[Hashable] = []
        candidates = [
            (self._rank(a), a.order, a.name) for a in self._accounts.values() if self._head(a)
        ]
        heapq.heapify(candidates)
        while candidates and self._running < self.config.slots:
            _, _, name = heapq.heappop(candidates)
            account = self._accounts[name]
            head = self._head(account)
            assert head is not None
            if not self._can_start(account, head):
                continue
            started.append(self._start(account, head))
            if self._head(account):
                heapq.heappush(candidates, (self._rank(account), account.order, name))
        return started

    def _rank(self, account: _Account) -> tuple[int | Fraction, int]:
        head = self._head(account)
        assert head is not None
        if self.config.fair:
            return (max(account.vtime, self._vtime), 0)
        return (-head.job.priority, head.seq)


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
    print()
    blocked_accounts(smoke)


READY = 4  # accounts with credits and jobs to run, beside the blocked ones


def blocked(make: type[Scheduler], blocked: int, fair: bool, jobs: int) -> Scheduler:
    """One slot free; READY accounts with `jobs` jobs each to run; `blocked` accounts that
    cannot start: the first half at their `max_running` (one job running, one waiting),
    the rest out of credits (1 credit, a job of 2 waiting)."""
    limited = blocked // 2
    scheduler = make(Config(slots=limited + 1, fair=fair))
    for b in range(blocked):
        name = f"blocked{b}"
        scheduler.open_account(name, max_running=1)
        scheduler.deposit(name, 10 if b < limited else 1)
        scheduler.submit(Job(f"{name}.0", name, 2))
        if b < limited:
            scheduler.submit(Job(f"{name}.1", name, 2))
    assert len(scheduler.schedule(now=0)) == limited  # each at its limit now; one slot free
    for r in range(READY):
        name = f"ready{r}"
        scheduler.open_account(name, weight=1 + r)
        scheduler.deposit(name, 10**15)
        for i in range(jobs):
            scheduler.submit(Job(f"{name}.{i}", name, 1 + (i * 7 + r) % 13, (i + r) % 3))
    return scheduler


def decide(scheduler: Scheduler, decisions: int, rounds: int) -> tuple[float, list[Hashable]]:
    """Microseconds per decision (a schedule that starts one job, then its finish), the
    least of `rounds` rounds of `decisions`; the jobs started, in order."""
    started: list[Hashable] = []
    best, now = float("inf"), 1
    for _ in range(rounds):
        began = time.perf_counter()
        for _ in range(decisions):
            (job_id,) = scheduler.schedule(now=now)
            scheduler.finish(job_id, 1)
            started.append(job_id)
            now += 1
        best = min(best, (time.perf_counter() - began) / decisions * 1e6)
    return best, started


def blocked_accounts(smoke: bool) -> None:
    sizes = [100, 1_000] if smoke else [1_000, 100_000]
    ours_decisions, rounds = (200, 3) if smoke else (2_000, 5)
    scan_budget = 20_000 if smoke else 2_000_000  # accounts the scan may look at, per round
    print(
        f"{'mode':>8} {'blocked':>8} {'reference':>11} {'scanning':>11} {'scan / ref':>11}"
        "   (us per decision)"
    )
    for fair in (False, True):
        mode = "fair" if fair else "priority"
        costs: dict[int, float] = {}
        for size in sizes:
            # The scan costs O(accounts) a decision: enough of them to time it, at any size.
            scan_decisions = max(5, min(ours_decisions, scan_budget // size))
            jobs = ours_decisions * rounds
            ours, order = decide(blocked(Scheduler, size, fair, jobs), ours_decisions, rounds)
            scan, scanned = decide(blocked(Scanning, size, fair, jobs), scan_decisions, rounds)
            assert scanned == order[: len(scanned)], "the two decisions started different jobs"
            costs[size] = ours
            print(f"{mode:>8} {size:>8,} {ours:>10.1f}  {scan:>10.1f}  {scan / ours:>10,.0f}x")
        low, high = sizes
        print(
            f"{mode:>8} the reference, {low:,} to {high:,} blocked accounts: "
            f"{costs[high] / costs[low]:.2f}x the time per decision"
        )


if __name__ == "__main__":
    main()
