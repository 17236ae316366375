"""A GPU credit scheduler: accounts hold credits, jobs cost credits, no account overspends.

Every credit is an integer and lives in exactly one place, so for every
account at every moment ``deposited == available + reserved + spent``:
a job's cost is held (``reserved``) from its start, or from an earlier
reservation, until it ends, when what it used is ``spent`` and the rest
refunded, once.  An operation that cannot be honoured raises ValueError and
changes nothing.

Order: each account serves its own jobs strictly in order (higher priority,
then first submitted): if its head job cannot start (the account cannot pay
for it, or has `max_running` jobs running) none of its jobs start, so no
cheap job overtakes an expensive one of its owner forever.  Across
accounts, best effort: an account that cannot start never blocks another.
The next account is the one whose head job comes first by priority, or with
``Config(fair=True)`` the one furthest behind its weighted share: the least
virtual time (start-time fair queueing; an account's virtual time advances
by cost / weight with each job it starts, from the larger of its own and
the scheduler's: an account gets no credit for the time it could not run).

Each reservation has its own number, so the expiry of one that was released
never ends a later reservation of the same job.

Cost: a decision is O(log n) in the waiting jobs, plus the accounts skipped.
"""

from __future__ import annotations

import heapq
import itertools
from collections.abc import Hashable
from dataclasses import dataclass, field
from fractions import Fraction

from variants.credits.records import Balance, Config, Job


@dataclass
class _Account:
    name: str
    order: int  # opening order: the last tie-break
    weight: int
    max_running: int | None
    available: int = 0
    reserved: int = 0
    spent: int = 0
    deposited: int = 0
    running: int = 0
    vtime: Fraction = Fraction(0)
    waiting: list[tuple[int, int, Hashable]] = field(default_factory=list)  # heap, lazily pruned


@dataclass
class _Job:
    job: Job
    seq: int  # submission order
    state: str = "queued"
    reservation: int | None = None  # which reservation holds it: each has its own number


class Scheduler:
    def __init__(self, config: Config) -> None:
        if config.slots < 1:
            raise ValueError(f"slots must be at least 1, got {config.slots}")
        self.config = config
        self._accounts: dict[str, _Account] = {}
        self._jobs: dict[Hashable, _Job] = {}
        # (expires, reservation, job id): an entry whose reservation is gone is skipped
        self._expiries: list[tuple[int, int, Hashable]] = []
        self._seq, self._reservations = itertools.count(), itertools.count()
        self._running = 0
        self._vtime = Fraction(0)
        self._now: int | None = None

    def open_account(self, name: str, *, weight: int = 1, max_running: int | None = None) -> None:
        if name in self._accounts:
            raise ValueError(f"account {name!r} is already open")
        if weight < 1 or (max_running is not None and max_running < 1):
            raise ValueError(f"need weight >= 1 and max_running >= 1: {weight}, {max_running}")
        self._accounts[name] = _Account(name, len(self._accounts), weight, max_running)

    def deposit(self, name: str, amount: int) -> None:
        account = self._account(name)
        if _credits(amount, "a deposit") < 1:
            raise ValueError(f"a deposit is at least 1 credit, got {amount}")
        account.available += amount
        account.deposited += amount

    def submit(self, job: Job) -> None:
        """Queue `job`; it holds no credits until reserved or started."""
        account = self._account(job.account)
        if job.id in self._jobs:
            raise ValueError(f"job {job.id!r} was already submitted")
        if _credits(job.cost, "a job's cost") < 1:
            raise ValueError(f"a job costs at least 1 credit: {job}")
        entry = _Job(job, next(self._seq))
        self._jobs[job.id] = entry
        heapq.heappush(account.waiting, (-job.priority, entry.seq, job.id))

    def reserve(self, job_id: Hashable, *, now: int, ttl: int) -> None:
        """Hold a queued job's cost now, until it starts, or `ttl` ticks pass, or it is released."""
        entry = self._job(job_id, "queued")
        account = self._accounts[entry.job.account]
        if ttl < 1:
            raise ValueError(f"ttl must be at least 1, got {ttl}")
        self._check_time(now)
        if entry.job.cost > account.available:
            raise ValueError(
                f"{account.name} has {account.available} credits; {job_id!r} costs {entry.job.cost}"
            )
        self._now = now
        account.available -= entry.job.cost
        account.reserved += entry.job.cost
        entry.state, entry.reservation = "reserved", next(self._reservations)
        heapq.heappush(self._expiries, (now + ttl, entry.reservation, job_id))

    def release(self, job_id: Hashable) -> None:
        self._release(self._job(job_id, "reserved"))

    def schedule(self, *, now: int) -> list[Hashable]:
        """Release the reservations expired by `now`; start jobs while slots are free.

        Returns the jobs started, in the order they started.
        """
        self._check_time(now)
        self._now = now
        while self._expiries and self._expiries[0][0] <= now:
            _, reservation, job_id = heapq.heappop(self._expiries)
            entry = self._jobs[job_id]
            if entry.reservation == reservation:  # None unless reserved: this reservation
                self._release(entry)
        started: list[Hashable] = []
        candidates = [
            (self._rank(a), a.order, a.name) for a in self._accounts.values() if self._head(a)
        ]
        heapq.heapify(candidates)
        while candidates and self._running < self.config.slots:
            # A rank in the heap stays exact within a call: the scheduler's virtual
            # time only moves to the least rank, which no other rank is below.
            _, _, name = heapq.heappop(candidates)
            account = self._accounts[name]
            head = self._head(account)
            assert head is not None  # only an account with a head is a candidate
            if not self._can_start(account, head):
                continue  # best effort: the others may still start; this one cannot, this time
            started.append(self._start(account, head))
            if self._head(account):
                heapq.heappush(candidates, (self._rank(account), account.order, name))
        return started

    def finish(self, job_id: Hashable, used: int) -> None:
        self._end(job_id, used, "finished")

    def fail(self, job_id: Hashable, used: int) -> None:
        self._end(job_id, used, "failed")

    def cancel(self, job_id: Hashable, used: int = 0) -> None:
        """A waiting job (`used` 0) ends now, its reservation released; a running one
        ends with `used` spent and the rest refunded."""
        entry = self._job(job_id, "queued", "reserved", "running")
        if entry.state == "running":
            self._end(job_id, used, "cancelled")
            return
        if _credits(used, "used") != 0:
            raise ValueError(f"job {job_id!r} never ran: it used nothing, not {used}")
        if entry.state == "reserved":
            self._release(entry)
        entry.state = "cancelled"

    def balance(self, name: str) -> Balance:
        a = self._account(name)
        return Balance(a.available, a.reserved, a.spent, a.deposited)

    def state(self, job_id: Hashable) -> str:
        if job_id not in self._jobs:
            raise ValueError(f"no job {job_id!r}")
        return self._jobs[job_id].state

    # --- the parts -------------------------------------------------------------------

    def _account(self, name: str) -> _Account:
        if name not in self._accounts:
            raise ValueError(f"no account {name!r}")
        return self._accounts[name]

    def _job(self, job_id: Hashable, *states: str) -> _Job:
        entry = self._jobs.get(job_id)
        if entry is None:
            raise ValueError(f"no job {job_id!r}")
        if entry.state not in states:
            raise ValueError(f"job {job_id!r} is {entry.state}, not {' or '.join(states)}")
        return entry

    def _check_time(self, now: int) -> None:
        if self._now is not None and now < self._now:
            raise ValueError(f"time went back: now={now} after now={self._now}")

    def _head(self, account: _Account) -> _Job | None:
        """The account's next job, pruning those that left the queue."""
        while account.waiting:
            entry = self._jobs[account.waiting[0][2]]
            if entry.state in ("queued", "reserved"):
                return entry
            heapq.heappop(account.waiting)
        return None

    def _rank(self, account: _Account) -> tuple[int | Fraction, int]:
        head = self._head(account)
        assert head is not None
        if self.config.fair:
            return (max(account.vtime, self._vtime), 0)
        return (-head.job.priority, head.seq)

    def _can_start(self, account: _Account, head: _Job) -> bool:
        if account.max_running is not None and account.running >= account.max_running:
            return False
        return head.state == "reserved" or head.job.cost <= account.available

    def _start(self, account: _Account, head: _Job) -> Hashable:
        if head.state == "queued":
            account.available -= head.job.cost
            account.reserved += head.job.cost
        head.state, head.reservation = "running", None
        account.running += 1
        self._running += 1
        if self.config.fair:
            self._vtime = max(account.vtime, self._vtime)
            account.vtime = self._vtime + Fraction(head.job.cost, account.weight)
        return head.job.id

    def _release(self, entry: _Job) -> None:
        account = self._accounts[entry.job.account]
        account.available += entry.job.cost
        account.reserved -= entry.job.cost
        entry.state, entry.reservation = "queued", None

    def _end(self, job_id: Hashable, used: int, state: str) -> None:
        entry = self._job(job_id, "running")
        if not 0 <= _credits(used, "used") <= entry.job.cost:
            raise ValueError(f"used must be between 0 and the cost {entry.job.cost}, got {used}")
        account = self._accounts[entry.job.account]
        account.reserved -= entry.job.cost
        account.spent += used
        account.available += entry.job.cost - used
        account.running -= 1
        self._running -= 1
        entry.state = state


def _credits(value: object, what: str) -> int:
    """`value` if it is an int of credits; ValueError for a float, a bool, anything else."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"{what} is an int of credits, never a {type(value).__name__}: {value!r}")
    return value
