"""What quotas, borrowing, reclaim and the thrashing guard buy, in a seeded day of three tenants.

A cluster of 64 GPUs for one day (86,400 ticks of one second) shared by
three tenants whose quotas add up to the cluster:

- "research" (quota 32): a burst every three hours of large training jobs
  (one of 32 GPUs, two of 16 or four of 8: its quota exactly), each running
  one to two hours, preemptible, checkpointing every 30 minutes; idle
  between bursts, so that it uses about half its quota's GPU-seconds.
- "prod" (quota 24): a steady stream of inference jobs (1 to 4 GPUs, never
  preempted, priority 2) and fine-tuning jobs (2 to 8 GPUs, preemptible,
  priority 1, checkpointing every 10 minutes), mostly within its quota.
- "batch" (quota 8): many small jobs (1 to 4 GPUs, 5 to 40 minutes,
  priority 0, no checkpoints) offering three times its quota: it lives on
  what it borrows.

Every policy runs the same arrivals.  The `Scheduler` makes every decision;
the simulation only moves time: it submits arrivals, finishes a job when
its work is done, and keeps the work each job has left.  A preempted job
keeps the work up to its last checkpoint (so what it ran since is to do
again), is queued again by the scheduler, and ends when it has run its work
in all.  GPUs held count as busy whether or not the work they did survives
(`utilization`); `useful` counts only the work kept.

What the four policies show, on the default seed: hard quotas leave the
idle quotas idle (about half the GPU-seconds) and batch waits hours;
borrowing fills them, but a tenant coming back to its quota waits for the
borrowers to end; reclaim gives the quota back at once, at the price of
preemptions and work lost.  The guard (`min_run`) costs the reclaimer
waiting (at most until the borrowers it found have run 600 ticks: no
borrower starts while a guaranteed head waits) and, since the victims it
allows are the ones that have run longer, *more* work lost, not less:
preemption's order (newest first) already takes the jobs that have least
to lose.  What it buys is that no start is wasted (`TenantDay.early`).
"""

from __future__ import annotations

import heapq
from collections.abc import Hashable
from dataclasses import dataclass
from fractions import Fraction
from random import Random

from variants.quotas.core import Scheduler
from variants.quotas.records import Decision, Job, Tenant

CAPACITY, DAY, HOUR, MINUTE = 64, 86_400, 3_600, 60
QUOTAS = (("research", 32), ("prod", 24), ("batch", 8))
# The scheduler is called at every arrival and completion, and once a minute besides, as a
# controller's periodic pass is.  Between events a decision can still become possible: a
# `min_run` guard expires `min_run` ticks after a start, and a job preempted is not started
# again by the call that preempted it.  The minute's pass takes both up within 59 ticks (a
# tenth of the guard) for 1,440 calls a day; a call at every tick changes the figures
# little (see `simulate`'s `every`) for some sixty times the calls.
PASS = MINUTE
GUARD = 10 * MINUTE  # the guarded policy's min_run; a run preempted younger wasted its start


@dataclass(frozen=True)
class Policy:
    name: str
    borrowing: bool  # False: every tenant's borrowing_limit is 0
    reclaim: bool
    min_run: int  # ticks a job runs before it may be preempted


POLICIES = (
    Policy("hard quotas", borrowing=False, reclaim=False, min_run=0),
    Policy("borrowing, no reclaim", borrowing=True, reclaim=False, min_run=0),
    Policy("borrowing + reclaim", borrowing=True, reclaim=True, min_run=GUARD),
    Policy("reclaim, no guard", borrowing=True, reclaim=True, min_run=0),
)


@dataclass(frozen=True)
class Arrival:
    at: int  # the tick it is submitted
    job: Job
    work: int  # ticks it must run, in all, to finish


@dataclass(frozen=True)
class TenantDay:
    name: str
    quota: int
    submitted: int
    finished: int
    wait_p50: int  # ticks from submission to first start (a job never started: to the end)
    wait_p99: int
    gpu_seconds: int  # GPU-ticks its jobs held, the work later lost included
    share: Fraction  # gpu_seconds over the cluster's GPU-ticks
    quota_share: Fraction  # quota over the capacity
    preemptions: int  # of its jobs
    early: int  # of those, preemptions of a run younger than GUARD ticks: a start wasted
    lost: int  # GPU-ticks of work its jobs lost to preemption (`Scheduler.lost`)

    @property
    def of_quota(self) -> Fraction:
        """Its mean usage over its quota: 1 is its quota exactly, above 1 it borrowed."""
        return self.share / self.quota_share

    @property
    def lost_gpu_hours(self) -> Fraction:
        return Fraction(self.lost, HOUR)


@dataclass(frozen=True)
class Result:
    policy: str
    capacity: int
    ticks: int
    busy: int  # GPU-ticks held by running jobs, over every tenant
    tenants: tuple[TenantDay, ...]  # in the order of QUOTAS

    @property
    def utilization(self) -> Fraction:
        """GPU-ticks busy over the capacity's GPU-ticks for the run."""
        return Fraction(self.busy, self.capacity * self.ticks)

    @property
    def useful(self) -> Fraction:
        """GPU-ticks busy on work that was kept (busy less lost) over the capacity's."""
        lost = sum(tenant.lost for tenant in self.tenants)
        return Fraction(self.busy - lost, self.capacity * self.ticks)

    @property
    def preemptions(self) -> int:
        return sum(tenant.preemptions for tenant in self.tenants)

    @property
    def preemptions_per_hour(self) -> Fraction:
        return Fraction(self.preemptions * HOUR, self.ticks)

    @property
    def lost_gpu_hours(self) -> Fraction:
        return sum((tenant.lost_gpu_hours for tenant in self.tenants), Fraction(0))

    def tenant(self, name: str) -> TenantDay:
        """The day of the tenant called `name`."""
        return next(tenant for tenant in self.tenants if tenant.name == name)


def tenants(policy: Policy) -> list[Tenant]:
    """The three tenants, borrowing any idle GPU, or none under hard quotas."""
    limit = None if policy.borrowing else 0
    return [Tenant(name, quota, limit) for name, quota in QUOTAS]


def arrivals(seed: int = 1, ticks: int = DAY) -> list[Arrival]:
    """Every tenant's arrivals in the first `ticks` ticks, by tick (ties in the order of
    QUOTAS): the same for every policy."""
    rng = Random(seed)
    found = [*_research(rng, ticks), *_prod(rng, ticks), *_batch(rng, ticks)]
    return sorted(found, key=lambda arrival: arrival.at)  # stable: ties keep tenant order


BURSTS = 3 * HOUR  # research's bursts: one in each such period, in its first hour
SWEEPS = (1, 2, 4)  # jobs a burst: 1 x 32 GPUs, 2 x 16 or 4 x 8, its quota exactly
PROD_GAP, BATCH_GAP = 20 * MINUTE, 150  # mean ticks between two arrivals


def _research(rng: Random, ticks: int) -> list[Arrival]:
    """A burst every three hours that fills the quota for one to two hours, then nothing.

    A burst needs the quota exactly, and ends before the next comes but for a quarter of an
    hour's overlap at worst: given its quota, research hardly ever waits.
    """
    found: list[Arrival] = []
    for period in range(0, ticks, BURSTS):
        at, jobs = period + rng.randint(0, HOUR), rng.choice(SWEEPS)
        for _ in range(jobs):
            if at < ticks:
                gpus, every = CAPACITY // 2 // jobs, 30 * MINUTE
                job = Job(f"research-{len(found)}", "research", gpus, checkpoint_every=every)
                found.append(Arrival(at, job, rng.randint(HOUR, 2 * HOUR)))
            at += rng.randint(0, 5 * MINUTE)
    return found


def _prod(rng: Random, ticks: int) -> list[Arrival]:
    """A steady stream: inference (never preempted) and fine-tuning, about 11 GPUs' worth."""
    found: list[Arrival] = []
    at = _gap(rng, PROD_GAP)
    while at < ticks:
        name = f"prod-{len(found)}"
        if rng.random() < 0.75:
            job = Job(name, "prod", rng.randint(1, 4), priority=2, preemptible=False)
            work = rng.randint(20 * MINUTE, 90 * MINUTE)
        else:
            job = Job(name, "prod", rng.randint(2, 8), priority=1, checkpoint_every=10 * MINUTE)
            work = rng.randint(30 * MINUTE, 2 * HOUR)
        found.append(Arrival(at, job, work))
        at += _gap(rng, PROD_GAP)
    return found


def _batch(rng: Random, ticks: int) -> list[Arrival]:
    """Small jobs without checkpoints, about 23 GPUs' worth: three times its quota."""
    found: list[Arrival] = []
    at = _gap(rng, BATCH_GAP)
    while at < ticks:
        job = Job(f"batch-{len(found)}", "batch", rng.randint(1, 4))
        found.append(Arrival(at, job, rng.randint(5 * MINUTE, 40 * MINUTE)))
        at += _gap(rng, BATCH_GAP)
    return found


def _gap(rng: Random, mean: int) -> int:
    """Ticks to the next arrival of a Poisson stream of the given mean gap; at least 1."""
    return max(1, round(rng.expovariate(1 / mean)))


class _Day:
    """One policy's day under way: the scheduler, what each job has left, and the tallies."""

    def __init__(self, policy: Policy, ticks: int) -> None:
        self.scheduler = Scheduler(
            CAPACITY, tenants(policy), reclaim=policy.reclaim, min_run=policy.min_run
        )
        self.ticks = ticks
        self.arrived: dict[Hashable, Arrival] = {}
        self.left: dict[Hashable, int] = {}  # ticks of work still to run
        self.first: dict[Hashable, int] = {}  # the tick of its first start
        self.started: dict[Hashable, tuple[int, int]] = {}  # running: (latest start, run)
        self.ends: list[tuple[int, int, Hashable]] = []  # (tick, run, job): heap, pruned lazily
        self.runs = 0
        names = [name for name, _ in QUOTAS]
        self.busy, self.finished = dict.fromkeys(names, 0), dict.fromkeys(names, 0)
        self.preempted, self.early = dict.fromkeys(names, 0), dict.fromkeys(names, 0)

    def submit(self, arrival: Arrival) -> None:
        self.scheduler.submit(arrival.job, now=arrival.at)
        self.arrived[arrival.job.id] = arrival
        self.left[arrival.job.id] = arrival.work

    def finish_due(self, now: int) -> None:
        """Finish every job whose work is done at `now`."""
        while self.ends and self.ends[0][0] == now:
            _, run, job_id = heapq.heappop(self.ends)
            if self.started.get(job_id, (0, -1))[1] == run:  # else preempted since
                self.scheduler.finish(job_id, now=now)
                self._stop(job_id, now)
                self.finished[self.arrived[job_id].job.tenant] += 1

    def apply(self, decision: Decision, now: int) -> None:
        """Keep what `decision` did: the work each victim keeps, the runs started."""
        for job_id in decision.preempted:
            job = self.arrived[job_id].job
            ran = self._stop(job_id, now)
            every = job.checkpoint_every
            self.left[job_id] -= ran - ran % every if every else 0  # kept: up to a checkpoint
            self.preempted[job.tenant] += 1
            if ran < GUARD:
                self.early[job.tenant] += 1
        for job_id in decision.started:
            self.first.setdefault(job_id, now)
            self.runs += 1
            self.started[job_id] = (now, self.runs)
            heapq.heappush(self.ends, (now + self.left[job_id], self.runs, job_id))

    def next_end(self) -> int | None:
        """The tick of the next completion still due, or None."""
        while self.ends and self.started.get(self.ends[0][2], (0, -1))[1] != self.ends[0][1]:
            heapq.heappop(self.ends)  # preempted since: its run's end will not come
        return self.ends[0][0] if self.ends else None

    def close(self) -> None:
        """Count the runs still going at the end of the day up to the end."""
        for job_id in list(self.started):
            self._stop(job_id, self.ticks)

    def _stop(self, job_id: Hashable, now: int) -> int:
        """The ticks its run lasted; its GPUs counted busy for them."""
        start, _ = self.started.pop(job_id)
        job = self.arrived[job_id].job
        self.busy[job.tenant] += job.gpus * (now - start)
        return now - start


def simulate(policy: Policy, *, seed: int = 1, ticks: int = DAY, every: int = PASS) -> Result:
    """One day of `arrivals(seed, ticks)` under `policy`, the scheduler called at each arrival
    and completion and every `every` ticks: utilization, waits, preemptions, work lost."""
    if every < 1:
        raise ValueError(f"every must be at least 1, got {every}")
    return _result(policy, _run(policy, arrivals(seed, ticks), ticks, every))


def _run(policy: Policy, workload: list[Arrival], ticks: int, every: int) -> _Day:
    """The day played out: the scheduler called at each arrival, completion and pass."""
    day, index, now = _Day(policy, ticks), 0, 0
    while now < ticks:
        day.finish_due(now)
        while index < len(workload) and workload[index].at == now:
            day.submit(workload[index])
            index += 1
        day.apply(day.scheduler.schedule(now=now), now)
        due = [now - now % every + every]
        if index < len(workload):
            due.append(workload[index].at)
        if (end := day.next_end()) is not None:
            due.append(end)
        now = min(due)
    day.close()
    return day


def _result(policy: Policy, day: _Day) -> Result:
    cluster = CAPACITY * day.ticks
    found = []
    for name, quota in QUOTAS:
        mine = [a for a in day.arrived.values() if a.job.tenant == name]
        waits = sorted(day.first.get(a.job.id, day.ticks) - a.at for a in mine)
        found.append(
            TenantDay(
                name,
                quota,
                len(mine),
                day.finished[name],
                _quantile(waits, 50),
                _quantile(waits, 99),
                day.busy[name],
                Fraction(day.busy[name], cluster),
                Fraction(quota, CAPACITY),
                day.preempted[name],
                day.early[name],
                day.scheduler.lost(name),
            )
        )
    return Result(policy.name, CAPACITY, day.ticks, sum(day.busy.values()), tuple(found))


def _quantile(values: list[int], percent: int) -> int:
    """The nearest-rank percentile of sorted `values`; 0 for none."""
    if not values:
        return 0
    return values[max(0, -(-percent * len(values) // 100) - 1)]  # the ceiling, in integers
