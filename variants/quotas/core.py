"""GPU quotas: each tenant guaranteed its quota, idle GPUs lent, taken back by preemption.

Invariant, after every call: the running jobs hold at most `capacity` GPUs,
each tenant at most its limit (quota + borrowing limit), and a job that may
not be preempted only GPUs within its tenant's quota.  Since the quotas add
up to at most the capacity, the GPUs held over quotas are always enough to
give a tenant within its quota what it asks: that is the guarantee, and
reclaim (rules 11 and 13 of the README) keeps it.

Each tenant keeps two heaps, pruned lazily: its queue, by (-priority,
submission), and its preemptible running jobs in preemption order
(priority, -started, -submission).  A decision looks at each tenant's head
and pops victims off the heaps: no rescan of the running jobs.
"""

from __future__ import annotations

import heapq
import itertools
from collections.abc import Callable, Generator, Hashable, Iterable, Iterator
from fractions import Fraction
from typing import Any

from variants.quotas.records import Decision, Job, Tenant

Entry = tuple[int, int, int, int, Hashable]  # priority, -started, -submission, run, id


class _Tenant:
    def __init__(self, tenant: Tenant, index: int, capacity: int) -> None:
        self.name, self.quota, self.index = tenant.name, tenant.quota, index
        borrowing = tenant.borrowing_limit
        self.limit = capacity if borrowing is None else min(capacity, tenant.quota + borrowing)
        self.usage = self.lost = 0
        self.pinned = 0  # the GPUs of its running jobs that may not be preempted
        self.queue: list[tuple[int, int, Hashable]] = []  # (-priority, submission, id)
        self.running: list[Entry] = []

    def share(self) -> tuple[bool, Fraction]:
        """usage / quota, a quota of 0 after every other (an infinite share)."""
        return (self.quota == 0, Fraction(self.usage, self.quota) if self.quota else Fraction(0))


class _Job:
    def __init__(self, job: Job, submission: int) -> None:
        self.job, self.submission = job, submission
        self.state, self.started, self.run = "queued", 0, -1


class Scheduler:
    """Quotas, borrowing, reclaim and priority preemption, decided at each `schedule(now)`."""

    def __init__(
        self, capacity: int, tenants: Iterable[Tenant], *, reclaim: bool = True, min_run: int = 0
    ) -> None:
        _count(capacity, "capacity", 1)
        given = list(tenants)
        if not given:
            raise ValueError("no tenants")
        for tenant in given:
            _count(tenant.quota, f"{tenant.name!r}'s quota", 0)
            if tenant.borrowing_limit is not None:
                _count(tenant.borrowing_limit, f"{tenant.name!r}'s borrowing_limit", 0)
        if len({tenant.name for tenant in given}) < len(given):
            raise ValueError("two tenants of one name")
        if sum(tenant.quota for tenant in given) > capacity:
            raise ValueError(f"the quotas add up to more than the capacity {capacity}")
        _count(min_run, "min_run", 0)
        if not isinstance(reclaim, bool):
            raise ValueError(f"reclaim must be a bool, got {reclaim!r}")
        self._tenants = {t.name: _Tenant(t, i, capacity) for i, t in enumerate(given)}
        self._reclaim, self._min_run, self._free = reclaim, min_run, capacity
        self._jobs: dict[Hashable, _Job] = {}
        self._now: int | None = None
        self._runs = itertools.count()

    def submit(self, job: Job, *, now: int) -> None:
        """Queue `job`; ValueError for one that could never run, or an id used before."""
        self._check_time(now)
        tenant = self._tenant(job.tenant)
        _count(job.gpus, "gpus", 1)
        _count(job.priority, "priority", None)
        if not isinstance(job.preemptible, bool):
            raise ValueError(f"preemptible must be a bool, got {job.preemptible!r}")
        if job.checkpoint_every is not None:
            _count(job.checkpoint_every, "checkpoint_every", 1)
        most = tenant.limit if job.preemptible else tenant.quota
        if job.gpus > most:
            raise ValueError(f"{job.gpus} GPUs: {tenant.name!r} may run at most {most}")
        if self._known(job.id):
            raise ValueError(f"job id {job.id!r} was used before")
        self._now = now
        self._jobs[job.id] = _Job(job, len(self._jobs))
        heapq.heappush(tenant.queue, (-job.priority, len(self._jobs) - 1, job.id))

    def finish(self, job_id: Hashable, *, now: int) -> None:
        """A running job ends; its GPUs are free at once."""
        self._end(job_id, now, "finished", ("running",))

    def cancel(self, job_id: Hashable, *, now: int) -> None:
        """A queued or running job ends, never to run again."""
        self._end(job_id, now, "cancelled", ("queued", "running"))

    def schedule(self, *, now: int) -> Decision:
        """Start heads, guaranteed before borrowing and by share, preempting as rules 11-13 say."""
        self._check_time(now)
        self._now = now
        decision, settled = Decision([], []), set[Hashable]()  # started or preempted this call
        while (chosen := self._next(now, settled)) is not None:
            tenant, job, victims = chosen
            for victim in victims:
                self._preempt(victim, now)
                decision.preempted.append(victim.job.id)
                settled.add(victim.job.id)
            self._start(tenant, job, now)
            decision.started.append(job.job.id)
            settled.add(job.job.id)
        return decision

    def state(self, job_id: Hashable) -> str:
        return self._job(job_id).state

    def usage(self, tenant: str) -> int:
        return self._tenant(tenant).usage

    def lost(self, tenant: str) -> int:
        return self._tenant(tenant).lost

    # --- deciding -------------------------------------------------------------------------

    def _next(self, now: int, settled: set[Hashable]) -> tuple[_Tenant, _Job, list[_Job]] | None:
        heads, waiting = [], False  # waiting: a head within its quota that cannot start
        for tenant in self._tenants.values():
            head = self._head(tenant)
            if head is not None:
                within = tenant.usage + head.job.gpus <= tenant.quota
                if head.job.id in settled:
                    waiting |= within
                else:
                    heads.append(((not within, tenant.share(), tenant.index), tenant, head))
        for (borrows, _, _), tenant, head in sorted(heads, key=lambda found: found[0]):
            if borrows and waiting:
                return None  # what a borrower took, the waiting head would have to take back
            victims = self._plan(tenant, head, now)
            if victims is not None:
                return tenant, head, victims
            waiting |= not borrows
        return None

    def _plan(self, tenant: _Tenant, head: _Job, now: int) -> Any:
        """The victims that make `head` fit ([] if it fits), or None if it cannot start."""
        gpus, most = head.job.gpus, tenant.limit
        if not head.job.preemptible and tenant.pinned + gpus > tenant.quota:
            return None  # it could never be given back: only within the quota
        if gpus <= self._free and tenant.usage + gpus <= most:
            return []
        if self._reclaim and tenant.usage + gpus <= tenant.quota:
            over = [t for t in self._tenants.values() if t is not tenant and t.usage > t.quota]
            victims = _cut(self._borrowed(over, now), lambda f: gpus <= self._free + f)
            if victims is not None:
                return victims
        lower = self._candidates(tenant, now, below=head.job.priority)
        return _cut(lower, lambda f: gpus <= self._free + f and tenant.usage - f + gpus <= most)

    def _borrowed(self, over: list[_Tenant], now: int) -> Generator[_Job, None, None]:
        """The candidates of rule 11 in order, each tenant's only while it is over its quota."""
        streams = {t.index: self._candidates(t, now) for t in over}
        excess = {t.index: t.usage - t.quota for t in over}
        tops = [(job_entry(j), i) for i, s in streams.items() if (j := next(s, None))]
        heapq.heapify(tops)
        try:
            while tops:
                entry, index = heapq.heappop(tops)
                victim = self._jobs[entry[-1]]
                excess[index] -= victim.job.gpus
                yield victim
                if excess[index] > 0 and (following := next(streams[index], None)):
                    heapq.heappush(tops, (job_entry(following), index))
        finally:
            for stream in streams.values():
                stream.close()  # each puts back what it took off its heap

    def _candidates(
        self, tenant: _Tenant, now: int, below: int | None = None
    ) -> Generator[_Job, None, None]:
        """The tenant's preemptible running jobs old enough to preempt, in preemption order."""
        popped: list[Entry] = []
        try:
            while tenant.running:
                entry = heapq.heappop(tenant.running)
                job = self._jobs[entry[-1]]
                if job.state != "running" or job.run != entry[3]:
                    continue  # ended or preempted since: dropped for good
                popped.append(entry)
                if below is not None and entry[0] >= below:
                    return
                if now - job.started >= self._min_run:
                    yield job
        finally:
            for entry in popped:  # a victim's entry goes back too: its run number retires it
                heapq.heappush(tenant.running, entry)

    # --- changing -------------------------------------------------------------------------

    def _start(self, tenant: _Tenant, job: _Job, now: int) -> None:
        heapq.heappop(tenant.queue)  # the head
        job.state, job.started, job.run = "running", now, next(self._runs)
        tenant.usage += job.job.gpus
        self._free -= job.job.gpus
        if job.job.preemptible:
            heapq.heappush(tenant.running, job_entry(job))
        else:
            tenant.pinned += job.job.gpus

    def _preempt(self, victim: _Job, now: int) -> None:
        tenant, job = self._tenants[victim.job.tenant], victim.job
        ran, every = now - victim.started, job.checkpoint_every
        tenant.lost += job.gpus * (ran % every if every else ran)
        self._stop(victim, "queued")
        heapq.heappush(tenant.queue, (-job.priority, victim.submission, job.id))

    def _end(self, job_id: Hashable, now: int, state: str, from_states: tuple[str, ...]) -> None:
        self._check_time(now)
        job = self._job(job_id)
        if job.state not in from_states:
            raise ValueError(f"job {job_id!r} is {job.state}, not {' or '.join(from_states)}")
        self._now = now
        if job.state == "running":
            self._stop(job, state)
        job.state = state  # a queued job's entry stays in the heap, skipped when reached

    def _stop(self, job: _Job, state: str) -> None:
        tenant = self._tenants[job.job.tenant]
        tenant.usage -= job.job.gpus
        if not job.job.preemptible:
            tenant.pinned -= job.job.gpus
        self._free += job.job.gpus
        job.state = state

    # --- reading --------------------------------------------------------------------------

    def _head(self, tenant: _Tenant) -> _Job | None:
        while tenant.queue:
            job = self._jobs[tenant.queue[0][-1]]
            if job.state == "queued":
                return job
            heapq.heappop(tenant.queue)
        return None

    def _tenant(self, name: Any) -> _Tenant:
        found = self._tenants.get(name) if isinstance(name, str) else None
        if found is None:
            raise ValueError(f"unknown tenant {name!r}")
        return found

    def _job(self, job_id: Any) -> _Job:
        if not self._known(job_id):
            raise ValueError(f"unknown job {job_id!r}")
        return self._jobs[job_id]

    def _known(self, job_id: Any) -> bool:
        try:
            return job_id in self._jobs
        except TypeError:  # unhashable
            raise ValueError(f"a job id must be hashable, got {job_id!r}") from None

    def _check_time(self, now: int) -> None:
        _count(now, "now", None)
        if self._now is not None and now < self._now:
            raise ValueError(f"time went back: now={now} after now={self._now}")


def job_entry(job: _Job) -> Entry:
    """A running job's place in preemption order: lowest priority, newest start, newest."""
    return (job.job.priority, -job.started, -job.submission, job.run, job.job.id)


def _cut(candidates: Iterator[_Job], fits: Callable[[int], bool]) -> list[_Job] | None:
    """Candidates taken in order until `fits(freed)`, then each not needed spared, from the
    next-to-last back; None (nothing preempted) if all of them would not do."""
    taken, freed = [], 0
    try:
        for candidate in candidates:
            taken.append(candidate)
            freed += candidate.job.gpus
            if fits(freed):
                break
        else:
            return None
    finally:
        close = getattr(candidates, "close", None)
        if close is not None:
            close()
    for victim in reversed(taken[:-1]):
        if fits(freed - victim.job.gpus):
            taken.remove(victim)
            freed -= victim.job.gpus
    return taken


def _count(value: Any, what: str, least: int | None) -> None:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"{what} must be an int, got {value!r}")
    if least is not None and value < least:
        raise ValueError(f"{what} must be at least {least}, got {value}")
