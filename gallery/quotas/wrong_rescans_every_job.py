"""WRONG: each decision rescans and sorts every job there is.

Right in behaviour, every rule of the contract kept: its only mistake is
the cost (rule 18).  A tenant's head is found by scanning every job ever
submitted, the candidates for preemption by filtering and sorting every
job, the free GPUs by summing every tenant's usage.  Starting one job costs
O(n log n) in the n jobs, so with thousands running, a reclaim of one GPU
reads them all.  Keep a heap per tenant for its queue and one for its
running jobs in preemption order, pruned lazily, and pop: pay only for the
jobs looked at.

An answer written apart from the reference (plain lists, a full scan each
decision).  The quota mistakes in this folder are this answer with one
method written again as the mistake (`class Scheduler(Written)`), so each
reads in place, against the right version here.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable
from fractions import Fraction
from typing import Any

from variants.quotas.records import Decision, Job, Tenant

FAILS = "quota_cost"

Fits = Callable[[list["_Ticket"]], bool]
Plan = list["_Ticket"]
Key = tuple[int, tuple[int, Fraction], Any]


class _Account:
    """One tenant's standing."""

    def __init__(self, name: str, quota: int, limit: int, rank: int) -> None:
        self.name = name
        self.quota = quota
        self.limit = limit
        self.rank = rank  # the order the tenants were given
        self.used = 0
        self.lost = 0


class _Ticket:
    """One submitted job and where it is."""

    def __init__(self, job: Job, serial: int) -> None:
        self.job = job
        self.serial = serial  # submission order
        self.status = "queued"
        self.since: int | None = None  # latest start

    @property
    def gpus(self) -> int:
        return self.job.gpus

    @property
    def started(self) -> int:
        assert self.since is not None, "only a job that has started has a start"
        return self.since


class Scheduler:
    def __init__(
        self, capacity: int, tenants: Iterable[Tenant], *, reclaim: bool = True, min_run: int = 0
    ) -> None:
        if not self._is_int(capacity) or capacity < 1:
            raise ValueError("capacity must be an int of at least 1")
        if not self._is_int(min_run) or min_run < 0:
            raise ValueError("min_run must be an int of at least 0")
        given = list(tenants)
        if not given:
            raise ValueError("no tenants")
        accounts = []
        names = set()
        total = 0
        for rank, tenant in enumerate(given):
            name, quota, borrow = tenant.name, tenant.quota, tenant.borrowing_limit
            if name in names:
                raise ValueError(f"tenant {name!r} given twice")
            names.add(name)
            if not self._is_int(quota) or quota < 0:
                raise ValueError(f"bad quota for {name!r}")
            if borrow is not None and (not self._is_int(borrow) or borrow < 0):
                raise ValueError(f"bad borrowing limit for {name!r}")
            total += quota
            accounts.append(_Account(name, quota, self._limit(capacity, quota, borrow), rank))
        if not self._quotas_fit(total, capacity):
            raise ValueError("quotas add up to more than the capacity")
        self._capacity = capacity
        self._reclaim = reclaim
        self._min_run = min_run
        self._accounts = accounts
        self._by_name = {a.name: a for a in accounts}
        self._tickets: dict[Hashable, _Ticket] = {}  # every job ever submitted
        self._serial = 0
        self._now: int | None = None
        self._preempted: list[Hashable] = []  # by the schedule call under way
        self._evicted: set[Hashable] = set()  # the same, to look up

    @staticmethod
    def _limit(capacity: int, quota: int, borrow: int | None) -> int:
        """quota + borrowing limit, the whole capacity without one; never past the capacity."""
        return capacity if borrow is None else min(capacity, quota + borrow)

    @staticmethod
    def _quotas_fit(total: int, capacity: int) -> bool:
        return total <= capacity  # a guarantee the cluster cannot honour is no guarantee

    # ---- numbers and time ------------------------------------------------

    @staticmethod
    def _is_int(value: object) -> bool:
        return isinstance(value, int) and not isinstance(value, bool)

    def _check_now(self, now: int) -> None:
        if not self._is_int(now):
            raise ValueError("now must be an int")
        if self._now is not None and now < self._now:
            raise ValueError("time went back")

    # ---- calls that change things ----------------------------------------

    def submit(self, job: Job, *, now: int) -> None:
        self._check_now(now)
        self._check_job(job, self._account(job.tenant))
        if self._used_before(job.id):
            raise ValueError(f"job id {job.id!r} used before")
        self._now = now
        self._tickets[job.id] = _Ticket(job, self._serial)
        self._serial += 1

    def _check_job(self, job: Job, account: _Account) -> None:
        """ValueError for a job that could never run."""
        if not self._is_int(job.gpus) or job.gpus < 1 or job.gpus > account.limit:
            raise ValueError("bad GPU count")
        if not self._is_int(job.priority):
            raise ValueError("priority must be an int")
        if job.checkpoint_every is not None and (
            not self._is_int(job.checkpoint_every) or job.checkpoint_every < 1
        ):
            raise ValueError("bad checkpoint interval")
        if not job.preemptible and job.gpus > account.quota:
            raise ValueError("a job that may not be preempted may not borrow")

    def _used_before(self, job_id: Hashable) -> bool:
        """By any job ever submitted, one that has ended too."""
        try:
            return job_id in self._tickets
        except TypeError:
            raise ValueError(f"a job id must be hashable, got {job_id!r}") from None

    def finish(self, job_id: Hashable, *, now: int) -> None:
        self._end(job_id, now, ("running",), "finished")

    def cancel(self, job_id: Hashable, *, now: int) -> None:
        self._end(job_id, now, ("queued", "running"), "cancelled")

    def _end(self, job_id: Hashable, now: int, allowed: tuple[str, ...], outcome: str) -> None:
        self._check_now(now)
        ticket = self._ticket(job_id)
        if ticket.status not in allowed:
            raise ValueError(f"job {job_id!r} is {ticket.status}")
        self._now = now
        if ticket.status == "running":
            self._by_name[ticket.job.tenant].used -= ticket.gpus
        ticket.status = outcome

    # ---- queries ----------------------------------------------------------

    def _ticket(self, job_id: Any) -> _Ticket:
        try:
            return self._tickets[job_id]
        except (KeyError, TypeError):
            raise ValueError(f"unknown job {job_id!r}") from None

    def _account(self, name: Any) -> _Account:
        try:
            return self._by_name[name]
        except (KeyError, TypeError):
            raise ValueError(f"unknown tenant {name!r}") from None

    def state(self, job_id: Hashable) -> str:
        return self._ticket(job_id).status

    def usage(self, tenant: str) -> int:
        return self._account(tenant).used

    def lost(self, tenant: str) -> int:
        return self._account(tenant).lost

    # ---- scheduling --------------------------------------------------------

    def _free(self) -> int:
        return self._capacity - sum(a.used for a in self._accounts)

    def _head(self, account: _Account) -> _Ticket | None:
        queued = [
            t
            for t in self._tickets.values()
            if t.status == "queued" and t.job.tenant == account.name
        ]
        if not queued:
            return None
        return min(queued, key=self._queue_rank)

    @staticmethod
    def _queue_rank(ticket: _Ticket) -> tuple[int, int]:
        return (-ticket.job.priority, ticket.serial)  # higher priority, then first submitted

    def _victim_rank(self, ticket: _Ticket) -> tuple[int, int, int]:
        # lowest priority first, then most recently started, then most recently submitted
        return (ticket.job.priority, -ticket.started, -ticket.serial)

    def _movable(self, ticket: _Ticket, now: int, fresh: set[Hashable]) -> bool:
        return (
            ticket.status == "running"
            and ticket.job.preemptible
            and now - ticket.started >= self._min_run
            and ticket.job.id not in fresh
        )

    def _most(self, account: _Account) -> int:
        """What the tenant may hold: its limit."""
        return account.limit

    def _may_stand(self, head: _Ticket, account: _Account) -> bool:
        """A job that may not be preempted keeps its tenant's jobs that may not be preempted
        within its quota: it could never be given back, so it never stands on borrowed GPUs."""
        if head.job.preemptible:
            return True
        pinned = sum(
            t.gpus
            for t in self._tickets.values()
            if t.status == "running" and t.job.tenant == account.name and not t.job.preemptible
        )
        return pinned + head.gpus <= account.quota

    def _fits(self, head: _Ticket, account: _Account, free: int, taken: list[_Ticket]) -> bool:
        back = sum(t.gpus for t in taken)
        own_back = sum(t.gpus for t in taken if t.job.tenant == account.name)
        after = account.used - own_back + head.gpus
        return head.gpus <= free + back and after <= self._most(account)

    @staticmethod
    def _cut(taken: list[_Ticket], fits: Fits) -> list[_Ticket]:
        kept = list(taken)
        for i in range(len(taken) - 2, -1, -1):
            trial = [t for t in kept if t is not taken[i]]
            if fits(trial):
                kept = trial
        return kept

    def _may_reclaim(self, head: _Ticket, account: _Account) -> bool:
        """Only a head that keeps its tenant within its quota takes from other tenants."""
        return self._reclaim and account.used + head.gpus <= account.quota

    def _still_over(self, owner: _Account, taken_from: dict[str, int], cand: _Ticket) -> bool:
        """A tenant gives back only while its usage, less what was taken, is over its quota
        (`cand`, the next job it would give, may take it below: a job is GPUs all or none)."""
        return owner.used - taken_from.get(owner.name, 0) > owner.quota

    def _take(self, pool: list[_Ticket], fits: Fits) -> Plan | None:
        """Candidates taken in order until the head fits, then cut; None if all would not."""
        taken: list[_Ticket] = []
        for cand in pool:
            if fits(taken):
                break
            taken.append(cand)
        if fits(taken):
            return self._cut(taken, fits)
        return None

    def _reclaim_plan(
        self, head: _Ticket, account: _Account, now: int, fresh: set[Hashable], fits: Fits
    ) -> Plan | None:
        """Rule 11: borrowed capacity taken back from other tenants over their quota."""
        taken = self._borrowed(head, account, now, fresh, fits)
        if fits(taken):
            return self._cut(taken, fits)
        return None

    def _borrowed(
        self, head: _Ticket, account: _Account, now: int, fresh: set[Hashable], fits: Fits
    ) -> list[_Ticket]:
        """Other tenants' candidates, taken in order until the head fits, each only while its
        tenant is over its quota (all of them, if the head never fits)."""
        pool = [
            t for t in self._tickets.values() if self._reclaimable(t, head, account, now, fresh)
        ]
        pool.sort(key=self._victim_rank)
        taken: list[_Ticket] = []
        taken_from: dict[str, int] = {}
        for cand in pool:
            if fits(taken):
                break
            owner = self._by_name[cand.job.tenant]
            if self._still_over(owner, taken_from, cand):
                taken.append(cand)
                taken_from[owner.name] = taken_from.get(owner.name, 0) + cand.gpus
        return taken

    def _reclaimable(
        self, ticket: _Ticket, head: _Ticket, account: _Account, now: int, fresh: set[Hashable]
    ) -> bool:
        """Another tenant's job may be taken back whatever its priority (Kueue's `Any`)."""
        return ticket.job.tenant != account.name and self._movable(ticket, now, fresh)

    def _lower_pool(
        self, head: _Ticket, account: _Account, now: int, fresh: set[Hashable]
    ) -> list[_Ticket]:
        """Rule 12's candidates: the tenant's own running jobs of strictly lower priority."""
        pool = [
            t
            for t in self._tickets.values()
            if t.job.tenant == account.name
            and t.job.priority < head.job.priority
            and self._movable(t, now, fresh)
        ]
        pool.sort(key=self._victim_rank)
        return pool

    def _plan(
        self, head: _Ticket, account: _Account, now: int, fresh: set[Hashable]
    ) -> Plan | None:
        """The victims that let `head` start ([] for none), or None if it cannot."""
        if not self._may_stand(head, account):
            return None
        free = self._free()

        def fits(taken: list[_Ticket]) -> bool:
            return self._fits(head, account, free, taken)

        if fits([]):
            return []
        if self._may_reclaim(head, account):
            plan = self._reclaim_plan(head, account, now, fresh, fits)
            if plan is not None:
                return plan
        return self._take(self._lower_pool(head, account, now, fresh), fits)

    @staticmethod
    def _guaranteed(head: _Ticket, account: _Account) -> bool:
        """The head keeps its tenant within its quota (its usage before any preemption)."""
        return account.used + head.gpus <= account.quota

    def _rank(self, head: _Ticket, account: _Account) -> Key:
        """Rule 9: guaranteed heads first, then the smallest share, then the order given."""
        return (0 if self._guaranteed(head, account) else 1, self._share(account), account.rank)

    def _borrower_may_start(self, waiting: bool) -> bool:
        """Not while a head within its quota waits: what a borrower took, that head would
        have to take back (and with min_run, wait for every new borrower to age)."""
        return not waiting

    @staticmethod
    def _share(account: _Account) -> tuple[int, Fraction]:
        if account.quota == 0:
            return (1, Fraction(0))  # an infinite share
        return (0, Fraction(account.used, account.quota))

    def _candidate(
        self,
        account: _Account,
        head: _Ticket,
        now: int,
        fresh: set[Hashable],
        evicted: set[Hashable],
    ) -> tuple[_Ticket, Plan] | None:
        """The tenant's head and its victims, if it can start now."""
        if head.job.id in evicted:
            return None  # a head preempted by this call waits for the next
        plan = self._plan(head, account, now, fresh)
        if plan is None:
            return None
        return head, plan

    def _preempt(self, victim: _Ticket, now: int) -> None:
        owner = self._by_name[victim.job.tenant]
        owner.lost += self._lost_work(victim, now)
        owner.used -= victim.gpus
        victim.status = "queued"
        self._evicted.add(victim.job.id)
        self._preempted.append(victim.job.id)

    @staticmethod
    def _lost_work(victim: _Ticket, now: int) -> int:
        """GPU-ticks since the victim's last checkpoint (since its latest start, without)."""
        ran = now - victim.started
        every = victim.job.checkpoint_every
        return victim.gpus * (ran % every if every else ran)

    def _start(self, ticket: _Ticket, now: int) -> None:
        ticket.status = "running"
        ticket.since = now
        self._by_name[ticket.job.tenant].used += ticket.gpus

    def schedule(self, *, now: int) -> Decision:
        self._check_now(now)
        self._now = now
        started: list[Hashable] = []
        fresh: set[Hashable] = set()
        self._preempted, self._evicted = [], set()
        while True:
            best: tuple[Key, _Ticket, Plan, bool] | None = None
            waiting = False  # a head within its quota that cannot start in this call
            for account in self._accounts:
                head = self._head(account)
                if head is None:
                    continue
                found = self._candidate(account, head, now, fresh, self._evicted)
                if found is None:
                    waiting |= self._guaranteed(head, account)
                    continue
                ticket, plan = found
                key = self._rank(ticket, account)
                if best is None or key < best[0]:
                    best = (key, ticket, plan, not self._guaranteed(ticket, account))
            if best is None or (best[3] and not self._borrower_may_start(waiting)):
                break
            _, head, plan, _ = best
            for victim in plan:
                self._preempt(victim, now)
            self._start(head, now)
            fresh.add(head.job.id)
            started.append(head.job.id)
        return Decision(started, self._preempted)
