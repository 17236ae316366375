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

The invariant behind the decision: an account is *ready* when its head job
can start now (it has one, it runs fewer than `max_running`, and the head is
reserved or the account can pay for it), and the ready accounts, and only
they, each have exactly one live entry in the scheduler's two heaps:

- ``_ready``: by the per-account part of the rank and the opening order.  By
  priority that part is the whole rank, the head's ``(-priority,
  submission)``; fairly it is the account's own virtual time.
- ``_caught_up`` (fair only): by opening order alone, the ready accounts
  whose virtual time the scheduler's has reached.  Their rank
  ``max(own, scheduler's)`` is the scheduler's, the same for all of them,
  so they tie, and the opening order decides, whatever the scheduler's
  virtual time later becomes.  Their rank is below that of any account
  still in ``_ready`` (whose own time is ahead), so one of them, if any,
  is next.

A key never has to change for every account at once: the scheduler's
virtual time only grows, so an account moves from ``_ready`` to
``_caught_up`` once per job it starts, when the scheduler's time passes its
own (checked at the top of ``_ready``, when the next account is asked for).
Every change of what makes an account ready (a deposit, a submission, a
reservation made or ended, a job started or ended) ends with
``_refresh(account)``, which gives it a new entry if it is ready under a new
key, and otherwise leaves its entry alone or marks it gone.  An entry is
live while its token is the account's (``_Account.token``); the others are
dropped when they come to the top, or all at once when they outnumber the
accounts.

Cost: a decision is O(log n) in the waiting jobs plus O(log accounts) for
each job it starts (amortized: each stale entry is dropped once); an
account that cannot start is never looked at.
"""

from __future__ import annotations

import heapq
import itertools
from collections.abc import Hashable
from dataclasses import dataclass, field
from fractions import Fraction

from variants.credits.records import Balance, Config, Job

# The part of an account's rank that is its own: the head's (-priority, submission) by
# priority; fairly, the account's virtual time (and 0), the scheduler's being kept apart.
_Key = tuple[int | Fraction, int]


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
    token: int | None = None  # its live entry among the ready accounts; None: not ready
    key: _Key | None = None  # that entry's key, while it has one


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
        # The ready accounts (see the module's docstring): (key, order, token) and, fairly,
        # (order, token) for those the scheduler's virtual time has reached.
        self._opened: list[_Account] = []  # by opening order: an entry's way back to its account
        self._ready: list[tuple[_Key, int, int]] = []
        self._caught_up: list[tuple[int, int]] = []
        self._tokens = itertools.count()

    def open_account(self, name: str, *, weight: int = 1, max_running: int | None = None) -> None:
        if name in self._accounts:
            raise ValueError(f"account {name!r} is already open")
        if weight < 1 or (max_running is not None and max_running < 1):
            raise ValueError(f"need weight >= 1 and max_running >= 1: {weight}, {max_running}")
        self._accounts[name] = _Account(name, len(self._accounts), weight, max_running)
        self._opened.append(self._accounts[name])

    def deposit(self, name: str, amount: int) -> None:
        account = self._account(name)
        if _credits(amount, "a deposit") < 1:
            raise ValueError(f"a deposit is at least 1 credit, got {amount}")
        account.available += amount
        account.deposited += amount
        self._refresh(account)

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
        self._refresh(account)

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
        self._refresh(account)

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
        while self._running < self.config.slots:
            # The least ranked account that can start, as a scan of every account would find
            # it: an account that cannot start is not in the heaps, and none becomes able to
            # within this call (only starting a job changes anything, and only its account).
            account = self._next_ready()
            if account is None:
                break
            head = self._head(account)
            assert head is not None  # it is ready: its head can start (see `_refresh`)
            started.append(self._start(account, head))
            self._refresh(account)
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
        self._refresh(self._accounts[entry.job.account])

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

    def _refresh(self, account: _Account) -> None:
        """Keep `account` among the ready accounts iff its head can start, under its key now.

        Called after every change to what makes it ready; an unchanged key keeps the entry
        it has, so a deposit to a ready account costs no heap operation.
        """
        head = self._head(account)
        if head is None or not self._can_start(account, head):
            account.token = account.key = None  # its entry, wherever it is, is stale now
            return
        key: _Key = (account.vtime, 0) if self.config.fair else (-head.job.priority, head.seq)
        if account.token is not None and account.key == key:
            return
        account.token, account.key = next(self._tokens), key
        heapq.heappush(self._ready, (key, account.order, account.token))
        if len(self._ready) + len(self._caught_up) > 2 * len(self._opened) + 16:
            self._compact()  # more stale entries than live ones: each was pushed once, paid for

    def _next_ready(self) -> _Account | None:
        """The ready account of least rank, taken out of the heaps (`_refresh` puts it back)."""
        if self.config.fair:
            # Those the scheduler's virtual time has reached rank at it, so by order alone. An
            # account crosses once for each job it starts: its time moves only then.
            while self._ready and self._ready[0][0][0] <= self._vtime:
                _, order, token = heapq.heappop(self._ready)
                if self._opened[order].token == token:
                    heapq.heappush(self._caught_up, (order, token))
            while self._caught_up:
                order, token = heapq.heappop(self._caught_up)
                if self._opened[order].token == token:
                    return self._take(self._opened[order])
        while self._ready:  # by priority; or fairly, none has been reached: the least own time
            _, order, token = heapq.heappop(self._ready)
            if self._opened[order].token == token:
                return self._take(self._opened[order])
        return None

    @staticmethod
    def _take(account: _Account) -> _Account:
        account.token = account.key = None  # out of the heaps: not ready until refreshed
        return account

    def _compact(self) -> None:
        """Drop every stale entry: O(entries), once their number has doubled the accounts'."""
        self._ready = [e for e in self._ready if self._opened[e[1]].token == e[2]]
        self._caught_up = [e for e in self._caught_up if self._opened[e[0]].token == e[1]]
        heapq.heapify(self._ready)
        heapq.heapify(self._caught_up)

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
        self._refresh(account)

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
        self._refresh(account)


def _credits(value: object, what: str) -> int:
    """`value` if it is an int of credits; ValueError for a float, a bool, anything else."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"{what} is an int of credits, never a {type(value).__name__}: {value!r}")
    return value
