"""RIGHT, written unlike the reference: sorted lists and bisect, its own records.

Where the reference keeps heaps pruned lazily, each tenant here keeps two
lists kept sorted with `bisect.insort` and pruned at once: its queue, by
(-priority, submission), and its preemptible running jobs in preemption
order, (priority, -started, -submission).  A job that leaves either list is
found in it by `bisect` on its key and deleted there, so the front of the
queue is always the head and every entry of the running list a candidate.
Victims are taken by walking those lists from the front: the tenant's own
for priority preemption (the walk ends at the first job of the head's
priority), and for a reclaim the over-quota tenants' lists merged by
`heapq.merge`, each tenant's walk ending as soon as it is no longer over its
quota.  Starting one job costs the tenants' heads plus O(log n) per job
looked at (and a list insertion, which moves memory but runs no Python
per element).  The suite compares what a caller sees, so all of this must
pass.
"""

from __future__ import annotations

import bisect
import heapq
from collections.abc import Callable, Hashable, Iterable, Iterator
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

FAILS = None

QueueKey = tuple[int, int]  # -priority, submission
RunKey = tuple[int, int, int]  # priority, -started, -submission


@dataclass(frozen=True)
class Tenant:
    name: str
    quota: int
    borrowing_limit: int | None = None


@dataclass(frozen=True)
class Job:
    id: Hashable
    tenant: str
    gpus: int
    priority: int = 0
    preemptible: bool = True
    checkpoint_every: int | None = None


@dataclass
class Decision:
    started: list[Hashable] = field(default_factory=list)
    preempted: list[Hashable] = field(default_factory=list)


@dataclass
class _Entry:
    job: Job
    submission: int
    state: str = "queued"
    started: int = 0

    def queue_key(self) -> QueueKey:
        return (-self.job.priority, self.submission)

    def run_key(self) -> RunKey:
        return (self.job.priority, -self.started, -self.submission)


@dataclass
class _Pool:
    """One tenant: its standing, its queue and its candidates, each a sorted list."""

    name: str
    quota: int
    limit: int
    index: int
    usage: int = 0
    pinned: int = 0  # the GPUs of its running jobs that may not be preempted
    lost: int = 0
    queue: list[QueueKey] = field(default_factory=list)
    running: list[RunKey] = field(default_factory=list)  # preemptible ones only

    def over(self) -> int:
        return self.usage - self.quota

    def share(self) -> tuple[bool, Fraction]:
        if self.quota == 0:
            return (True, Fraction(0))  # an infinite share: after every finite one
        return (False, Fraction(self.usage, self.quota))


def _integer(value: Any, what: str, least: int | None = None) -> int:
    if type(value) is not int:  # a bool, a float, anything else
        raise ValueError(f"{what} must be an int, got {value!r}")
    if least is not None and value < least:
        raise ValueError(f"{what} must be at least {least}, got {value}")
    return value


def _remove(keys: list[Any], key: Any) -> None:
    at = bisect.bisect_left(keys, key)
    assert at < len(keys), f"{key} is not in its list"
    assert keys[at] == key, f"{key} is not in its list"
    del keys[at]


class Scheduler:
    def __init__(
        self, capacity: int, tenants: Iterable[Tenant], *, reclaim: bool = True, min_run: int = 0
    ) -> None:
        self._capacity = _integer(capacity, "capacity", 1)
        self._min_run = _integer(min_run, "min_run", 0)
        if not isinstance(reclaim, bool):
            raise ValueError(f"reclaim is True or False, got {reclaim!r}")
        self._reclaim = reclaim
        self._pools: dict[Hashable, _Pool] = {}
        for tenant in tenants:
            quota = _integer(tenant.quota, f"the quota of {tenant.name!r}", 0)
            borrowing = tenant.borrowing_limit
            limit = capacity
            if borrowing is not None:
                limit = min(capacity, quota + _integer(borrowing, "a borrowing limit", 0))
            if not isinstance(tenant.name, Hashable) or self._pool_or_none(tenant.name):
                raise ValueError(f"a tenant's name is hashable and its own: {tenant.name!r}")
            self._pools[tenant.name] = _Pool(tenant.name, quota, limit, len(self._pools))
        if not self._pools:
            raise ValueError("no tenants")
        if sum(pool.quota for pool in self._pools.values()) > capacity:
            raise ValueError(f"the quotas add up to more than the {capacity} GPUs")
        self._free = capacity
        self._entries: dict[Hashable, _Entry] = {}
        self._by_submission: list[_Entry] = []
        self._clock: int | None = None

    # --- the calls --------------------------------------------------------------------------

    def submit(self, job: Job, *, now: int) -> None:
        self._time(now)
        pool = self._pool(job.tenant)
        gpus = _integer(job.gpus, "gpus", 1)
        _integer(job.priority, "priority")
        if not isinstance(job.preemptible, bool):
            raise ValueError(f"preemptible is True or False, got {job.preemptible!r}")
        if job.checkpoint_every is not None:
            _integer(job.checkpoint_every, "checkpoint_every", 1)
        most = pool.limit if job.preemptible else pool.quota
        if gpus > most:
            raise ValueError(f"{gpus} GPUs could never run: {pool.name!r} may hold {most}")
        if self._entry_or_none(job.id) is not None:
            raise ValueError(f"the id {job.id!r} was used before")
        entry = _Entry(job, len(self._by_submission))
        self._entries[job.id] = entry
        self._by_submission.append(entry)
        bisect.insort(pool.queue, entry.queue_key())
        self._clock = now

    def finish(self, job_id: Hashable, *, now: int) -> None:
        self._end(job_id, now, "finished", ("running",))

    def cancel(self, job_id: Hashable, *, now: int) -> None:
        self._end(job_id, now, "cancelled", ("queued", "running"))

    def schedule(self, *, now: int) -> Decision:
        self._time(now)
        self._clock = now
        decision = Decision()
        waiting: set[int] = set()  # submissions preempted by this call: not started again
        while (chosen := self._choose(now, waiting)) is not None:
            pool, head, victims = chosen
            for victim in victims:
                self._preempt(victim, now)
                decision.preempted.append(victim.job.id)
                waiting.add(victim.submission)
            self._start(pool, head, now)
            decision.started.append(head.job.id)
        return decision

    def state(self, job_id: Hashable) -> str:
        return self._entry(job_id).state

    def usage(self, tenant: str) -> int:
        return self._pool(tenant).usage

    def lost(self, tenant: str) -> int:
        return self._pool(tenant).lost

    # --- choosing ---------------------------------------------------------------------------

    def _choose(self, now: int, waiting: set[int]) -> tuple[_Pool, _Entry, list[_Entry]] | None:
        """The head to start next, by rule 9, with its victims."""
        heads = []
        held = False  # a head within its quota cannot start: no head borrows in this call
        for pool in self._pools.values():
            if not pool.queue:
                continue
            head = self._by_submission[pool.queue[0][1]]
            borrows = pool.usage + head.job.gpus > pool.quota
            if head.submission in waiting:  # preempted by this call: its tenant waits
                held = held or not borrows
                continue
            heads.append(((borrows, pool.share(), pool.index), pool, head))
        heads.sort(key=lambda found: found[0])
        for (borrows, _, _), pool, head in heads:
            if borrows and held:
                return None
            victims = self._victims(pool, head, now)
            if victims is not None:
                return pool, head, victims
            held = held or not borrows
        return None

    def _victims(self, pool: _Pool, head: _Entry, now: int) -> list[_Entry] | None:
        """[] if the head fits, the victims that make it fit, or None if nothing does."""
        gpus, most = head.job.gpus, pool.limit
        if not head.job.preemptible and pool.pinned + gpus > pool.quota:
            return None  # it could never be given back: it never stands on borrowed GPUs
        if gpus <= self._free and pool.usage + gpus <= most:
            return []
        if self._reclaim and pool.usage + gpus <= pool.quota:
            taken = _cut(self._borrowed(pool, now), lambda freed: gpus <= self._free + freed)
            if taken is not None:
                return taken
        lower = (entry for _, entry in self._walk(pool, now, below=head.job.priority))
        return _cut(
            lower, lambda freed: gpus <= self._free + freed and pool.usage - freed + gpus <= most
        )

    def _walk(
        self, pool: _Pool, now: int, *, below: int | None = None, gives: list[int] | None = None
    ) -> Iterator[tuple[RunKey, _Entry]]:
        """The tenant's candidates in preemption order, from the front of its running list:
        only jobs of priority below `below`, if given; only while `gives[0]` (what it still
        holds over its quota) is above 0, if given."""
        for key in pool.running:
            if below is not None and key[0] >= below:
                return
            if gives is not None and gives[0] <= 0:
                return
            entry = self._by_submission[-key[2]]
            if now - entry.started >= self._min_run:
                yield key, entry

    def _borrowed(self, pool: _Pool, now: int) -> Iterator[_Entry]:
        """Rule 11's candidates: the other tenants over their quota, merged in preemption
        order; each tenant's walk ends when what was taken brings it to its quota."""
        over = [p for p in self._pools.values() if p is not pool and p.over() > 0]
        gives = {p.index: [p.over()] for p in over}
        walks = [self._walk(p, now, gives=gives[p.index]) for p in over]
        for _, entry in heapq.merge(*walks):
            gives[self._pools[entry.job.tenant].index][0] -= entry.job.gpus
            yield entry

    # --- changing ---------------------------------------------------------------------------

    def _start(self, pool: _Pool, entry: _Entry, now: int) -> None:
        del pool.queue[0]  # the head
        entry.state, entry.started = "running", now
        pool.usage += entry.job.gpus
        self._free -= entry.job.gpus
        if entry.job.preemptible:
            bisect.insort(pool.running, entry.run_key())
        else:
            pool.pinned += entry.job.gpus

    def _stop(self, entry: _Entry, state: str) -> _Pool:
        pool = self._pools[entry.job.tenant]
        if entry.job.preemptible:
            _remove(pool.running, entry.run_key())
        else:
            pool.pinned -= entry.job.gpus
        pool.usage -= entry.job.gpus
        self._free += entry.job.gpus
        entry.state = state
        return pool

    def _preempt(self, entry: _Entry, now: int) -> None:
        ran, every = now - entry.started, entry.job.checkpoint_every
        pool = self._stop(entry, "queued")
        pool.lost += entry.job.gpus * (ran % every if every is not None else ran)
        bisect.insort(pool.queue, entry.queue_key())  # at its place: same key as before

    def _end(self, job_id: Hashable, now: int, state: str, allowed: tuple[str, ...]) -> None:
        self._time(now)
        entry = self._entry(job_id)
        if entry.state not in allowed:
            raise ValueError(f"{job_id!r} is {entry.state}: it cannot be {state}")
        if entry.state == "running":
            self._stop(entry, state)
        else:
            _remove(self._pools[entry.job.tenant].queue, entry.queue_key())
            entry.state = state
        self._clock = now

    # --- looking up -------------------------------------------------------------------------

    def _time(self, now: int) -> None:
        _integer(now, "now")
        if self._clock is not None and now < self._clock:
            raise ValueError(f"now={now} is before {self._clock}: time never goes back")

    def _pool_or_none(self, name: Any) -> _Pool | None:
        try:
            return self._pools.get(name)
        except TypeError:  # unhashable: no tenant's name
            return None

    def _pool(self, name: Any) -> _Pool:
        pool = self._pool_or_none(name)
        if pool is None:
            raise ValueError(f"no tenant {name!r}")
        return pool

    def _entry_or_none(self, job_id: Any) -> _Entry | None:
        try:
            return self._entries.get(job_id)
        except TypeError:
            raise ValueError(f"a job id is hashable, got {job_id!r}") from None

    def _entry(self, job_id: Any) -> _Entry:
        entry = self._entry_or_none(job_id)
        if entry is None:
            raise ValueError(f"no job {job_id!r}")
        return entry


def _cut(candidates: Iterable[_Entry], fits: Callable[[int], bool]) -> list[_Entry] | None:
    """Candidates taken in order until `fits(freed)`; then, from the next-to-last back to the
    first, each the head fits without is spared.  None if all of them would not do."""
    taken: list[_Entry] = []
    freed = 0
    for entry in candidates:
        taken.append(entry)
        freed += entry.job.gpus
        if fits(freed):
            break
    else:
        return None
    kept = [True] * len(taken)
    for i in range(len(taken) - 2, -1, -1):
        if fits(freed - taken[i].job.gpus):
            kept[i] = False
            freed -= taken[i].job.gpus
    return [entry for entry, keep in zip(taken, kept, strict=True) if keep]
