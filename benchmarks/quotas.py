"""A quota scheduler's decisions beside a naive rescan of every running job, in one run.

    python3 benchmarks/quotas.py            # 100k and 1M operations, and 100k on 4x the GPUs
    python3 benchmarks/quotas.py --smoke    # small, for CI

The workload: four tenants with a quota of 1,024 GPUs each on 4,096 GPUs,
borrowing any idle GPU, reclaim on, `min_run` 4 ticks.  Each tick has two
submissions, one `schedule`, and the finishes that are due: jobs of 1 to 8
GPUs, priorities 0 to 2, each run lasting 200 to 799 ticks (a preempted
job runs all of it again), some 10% more than the cluster holds, so that it
stays full, some 900 jobs running.  One tenant surges: the first submission
of each tick is its, the second each other tenant's in turn (one in five of
those never preempted).  Every 500 ticks the surge moves on and the tenant
it leaves cancels what it still has queued: the tenant it reaches, under
its quota, reclaims from the one it leaves, far over; within the surging
tenant, a job of higher priority preempts its own of lower priority.  At
scale 4 the cluster, the quotas, the runs and the surge are 4x as long or
as large, some 3,600 jobs running.

The naive scheduler is the reference with one change: to choose victims it
sorts the tenant's every running job into preemption order, where the
reference pops a heap kept in that order.  Both make the same decisions,
which the run asserts.  Printed: seconds for each and their ratio, the
preemptions (and, from a third run, how many were by reclaim and how many
by priority), and the reference's scaling from 100k to 1M operations (10x
the operations on the same cluster: about 10x the time).  On 4x the
cluster the reference's time stays the same and the naive one's grows with
the jobs running.
"""

from __future__ import annotations

import argparse
import heapq
import sys
import time
from collections.abc import Generator, Hashable, Iterable
from pathlib import Path
from typing import cast

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from variants.quotas import Decision, Job, Scheduler, Tenant
from variants.quotas.core import _Job, _Tenant, job_entry

TENANTS, MIN_RUN = 4, 4
QUOTA, SURGE = 1_024, 500  # GPUs, and ticks a tenant surges: each times the scale, as the runs


class Naive(Scheduler):
    """The reference, but a victim choice sorts the tenant's every running job afresh.

    It keeps, per tenant, the preemptible jobs it started (a job started
    again replaces its entry); `_candidates` drops those no longer running,
    sorts the rest by the reference's own preemption order (`job_entry`) and
    filters them as the reference does.  The reference's heap of running
    jobs is still pushed on each start, never read: a cost of O(log n) a
    start, beside the O(r log r) sort of r running jobs at each look.
    """

    def __init__(
        self, capacity: int, tenants: Iterable[Tenant], *, reclaim: bool = True, min_run: int = 0
    ) -> None:
        given = list(tenants)
        super().__init__(capacity, given, reclaim=reclaim, min_run=min_run)
        self._started: dict[str, dict[Hashable, _Job]] = {t.name: {} for t in given}

    def _start(self, tenant: _Tenant, job: _Job, now: int) -> None:
        super()._start(tenant, job, now)
        if job.job.preemptible:
            self._started[tenant.name][job.job.id] = job

    def _candidates(
        self, tenant: _Tenant, now: int, below: int | None = None
    ) -> Generator[_Job, None, None]:
        started = self._started[tenant.name]
        for job_id in [i for i, job in started.items() if job.state != "running"]:
            del started[job_id]
        for job in sorted(started.values(), key=job_entry):
            if below is not None and job.job.priority >= below:
                return
            if now - job.started >= self._min_run:
                yield job


class Counting(Scheduler):
    """The reference, counting its victims by kind: another tenant's (reclaim) or its own
    (priority).  Victims are preempted just before the job they make room for starts."""

    def __init__(
        self, capacity: int, tenants: Iterable[Tenant], *, reclaim: bool = True, min_run: int = 0
    ) -> None:
        super().__init__(capacity, tenants, reclaim=reclaim, min_run=min_run)
        self.reclaimed = self.by_priority = 0
        self._victims: list[str] = []  # the tenants of those preempted for the next start

    def _preempt(self, victim: _Job, now: int) -> None:
        super()._preempt(victim, now)
        self._victims.append(victim.job.tenant)

    def _start(self, tenant: _Tenant, job: _Job, now: int) -> None:
        super()._start(tenant, job, now)
        own = self._victims.count(tenant.name)
        self.by_priority += own
        self.reclaimed += len(self._victims) - own
        self._victims.clear()


class _Load:
    """The workload's side of a run: the jobs it submitted, the runs it will finish."""

    def __init__(self, scheduler: Scheduler, scale: int) -> None:
        self.scheduler, self.scale, self.submitted = scheduler, scale, 0
        self.ends: list[tuple[int, int, int]] = []  # (tick, job, its start): a heap
        self.started: dict[int, int] = {}  # each job's latest start
        self.live: dict[str, set[int]] = {}  # each tenant's jobs not ended

    def finish_due(self, now: int) -> int:
        """Finish the runs due by `now`; the operations that took."""
        done = 0
        while self.ends and self.ends[0][0] <= now:
            _, number, start = heapq.heappop(self.ends)
            if self.started[number] == start and self.scheduler.state(number) == "running":
                self.scheduler.finish(number, now=now)  # else preempted since: it never ends
                self.live[_tenant(number, self.scale)].discard(number)
                done += 1
        return done

    def submit(self, now: int) -> None:
        job = _job(self.submitted, self.scale)
        self.scheduler.submit(job, now=now)
        self.live.setdefault(job.tenant, set()).add(self.submitted)
        self.submitted += 1

    def withdraw(self, now: int) -> int:
        """At the end of a surge, cancel the surging tenant's queued jobs; the operations."""
        tenant = _tenant(self.submitted - 2, self.scale)  # the last round's first: the surge's
        live = self.live.get(tenant, set())
        queued = sorted(n for n in live if self.scheduler.state(n) == "queued")
        for number in queued:
            self.scheduler.cancel(number, now=now)
            live.discard(number)
        return len(queued)

    def record(self, decision: Decision, now: int) -> None:
        for job_id in decision.started:
            number = cast(int, job_id)
            self.started[number] = now
            heapq.heappush(self.ends, (now + _duration(number, self.scale), number, now))


def workload(
    make: type[Scheduler], operations: int, scale: int = 1
) -> tuple[float, list[Decision], Scheduler]:
    """Seconds for `operations` operations on `scale` x 4,096 GPUs, every decision `schedule`
    returned, and the scheduler."""
    tenants = [Tenant(f"t{i}", QUOTA * scale) for i in range(TENANTS)]
    scheduler = make(TENANTS * QUOTA * scale, tenants, reclaim=True, min_run=MIN_RUN)
    load, decisions = _Load(scheduler, scale), list[Decision]()
    done, now = 0, 0
    began = time.perf_counter()
    while done < operations:
        done += load.finish_due(now)
        if now and now % (SURGE * scale) == 0:
            done += load.withdraw(now)
        load.submit(now)
        load.submit(now)
        decision = scheduler.schedule(now=now)
        load.record(decision, now)
        decisions.append(decision)
        done += 3
        now += 1
    return time.perf_counter() - began, decisions, scheduler


def kinds(operations: int) -> tuple[int, int]:
    """The preemptions of `operations` operations by reclaim and by priority (a run untimed)."""
    _, _, scheduler = workload(Counting, operations)
    assert isinstance(scheduler, Counting)
    return scheduler.reclaimed, scheduler.by_priority


def _job(number: int, scale: int) -> Job:
    """The `number`th job: 1 to 8 GPUs, priority 0 to 2; one in five of the steady stream's
    never preempted (one of the surge's, its tenant far over its quota, would preempt its
    tenant's jobs of lower priority until the tenant is back within its quota)."""
    return Job(
        number,
        _tenant(number, scale),
        1 + number * 5 % 8,
        priority=number // 3 % 3,
        preemptible=number % 10 != 1,
        checkpoint_every=None if number % 2 else 3,
    )


def _tenant(number: int, scale: int) -> str:
    """The tenant of the `number`th job: of each round's two, the first the surging tenant's,
    the second each other tenant's in turn."""
    round_ = number // 2
    surge = round_ // (SURGE * scale) % TENANTS
    return f"t{surge if number % 2 == 0 else (surge + 1 + round_ % (TENANTS - 1)) % TENANTS}"


def _duration(number: int, scale: int) -> int:
    """Ticks a run of the `number`th job lasts: 200 to 799 times the scale, 500 on average."""
    return (200 + number * 37 % 600) * scale


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--smoke", action="store_true", help="small, for CI")
    smoke = parser.parse_args().smoke
    # (operations, scale): 10x the operations, then 4x the cluster and the jobs running.
    runs = (
        [(4_000, 1), (8_000, 1), (4_000, 4)]
        if smoke
        else [(100_000, 1), (1_000_000, 1), (100_000, 4)]
    )
    columns = ("operations", 11), ("GPUs", 7), ("preempted", 10), ("reference", 10), ("naive", 10)
    print(" ".join(f"{name:>{width}}" for name, width in columns), f"{'naive / ref':>12}")
    seconds: dict[tuple[int, int], float] = {}
    for size, scale in runs:
        ours, decisions, _ = workload(Scheduler, size, scale)
        naive, theirs, _ = workload(Naive, size, scale)
        assert theirs == decisions, "the naive scheduler decided otherwise"
        seconds[size, scale] = ours
        preempted = sum(len(decision.preempted) for decision in decisions)
        print(
            f"{size:>11,} {TENANTS * QUOTA * scale:>7,} {preempted:>10,} {ours:>9.2f}s "
            f"{naive:>9.2f}s {naive / ours:>11,.1f}x"
        )
    (small, _), (large, _) = runs[:2]
    reclaimed, by_priority = kinds(small)
    print(f"of those at {small:,}: {reclaimed:,} by reclaim, {by_priority:,} by priority")
    growth = seconds[large, 1] / seconds[small, 1]
    print(f"the reference, {small:,} to {large:,} operations: {growth:.1f}x the time")


if __name__ == "__main__":
    main()
