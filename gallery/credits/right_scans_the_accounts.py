"""RIGHT, written unlike the reference: every account scanned per decision, its own records.

Each account keeps its waiting jobs in a heap keyed by (-priority,
submission), pruned lazily of jobs that left the queue; a decision looks at
each account's head and picks the best by scanning the accounts (where the
reference keeps a heap of them), so it costs O(log n) in the waiting jobs
plus one look per account; reservations wait in a heap of expiries, each
reservation numbered.  Balances are four integer fields moved together.
The suite compares what a caller sees, so all of this must pass.  The
credit mistakes in this folder are this class with one method written as
the mistake (`class Scheduler(Written)`).
"""

from __future__ import annotations

import heapq
from collections.abc import Hashable
from dataclasses import dataclass, field
from fractions import Fraction

FAILS = None


@dataclass(frozen=True)
class Config:
    slots: int
    fair: bool = False

    def __post_init__(self) -> None:
        if self.slots <= 0:
            raise ValueError("no slots")


@dataclass(frozen=True)
class Job:
    id: Hashable
    account: str
    cost: int
    priority: int = 0


@dataclass(frozen=True)
class Balance:
    available: int
    reserved: int
    spent: int
    deposited: int


@dataclass
class Account:
    name: str
    weight: int
    limit: int | None
    available: int = 0
    reserved: int = 0
    spent: int = 0
    deposited: int = 0
    vtime: Fraction = Fraction(0)
    running: int = 0
    queue: list[tuple[int, int, Hashable]] = field(default_factory=list)  # a heap, pruned lazily


@dataclass
class Entry:
    job: Job
    seq: int
    state: str = "queued"
    reservation: int = -1  # each reservation's own number, so a stale expiry is known


def whole(credits: object) -> int:
    """Credits are ints: a float (or a bool) is refused, never rounded."""
    if type(credits) is not int:
        raise ValueError(f"credits are ints, not {credits!r}")
    return credits


class Scheduler:
    def __init__(self, config: Config) -> None:
        self.config = config
        self.accounts: dict[str, Account] = {}
        self.entries: dict[Hashable, Entry] = {}
        self.expiries: list[tuple[int, int, Hashable]] = []  # a heap of (expires, number, id)
        self.clock: int | None = None
        self.vtime = Fraction(0)
        self.active = 0  # jobs running, over every account
        self.reservations = 0  # reservations made so far: each is numbered

    def open_account(self, name: str, *, weight: int = 1, max_running: int | None = None) -> None:
        if name in self.accounts or weight <= 0 or (max_running is not None and max_running <= 0):
            raise ValueError(f"cannot open {name!r}")
        self.accounts[name] = Account(name, weight, max_running)

    def deposit(self, name: str, amount: int) -> None:
        account = self.account(name)
        if self.whole(amount) <= 0:
            raise ValueError("deposits are positive")
        account.available += amount
        account.deposited += amount

    def submit(self, job: Job) -> None:
        account = self.account(job.account)
        if job.id in self.entries or self.whole(job.cost) <= 0:
            raise ValueError(f"cannot submit {job}")
        entry = Entry(job, len(self.entries))
        self.entries[job.id] = entry
        heapq.heappush(account.queue, self.key(entry))

    def key(self, entry: Entry) -> tuple[int, int, Hashable]:
        return (-entry.job.priority, entry.seq, entry.job.id)

    def reserve(self, job_id: Hashable, *, now: int, ttl: int) -> None:
        entry = self.entry(job_id)
        account = self.accounts[entry.job.account]
        if entry.state != "queued" or ttl <= 0 or self.late(now):
            raise ValueError(f"cannot reserve {job_id!r}")
        if entry.job.cost > account.available:
            raise ValueError(f"{account.name} cannot pay for {job_id!r}")
        self.clock = now
        self.hold(account, entry)
        self.reservations += 1
        entry.state, entry.reservation = "reserved", self.reservations
        heapq.heappush(self.expiries, (now + ttl, entry.reservation, job_id))

    def release(self, job_id: Hashable) -> None:
        entry = self.entry(job_id)
        if entry.state != "reserved":
            raise ValueError(f"{job_id!r} is not reserved")
        self.unhold(entry)

    def schedule(self, *, now: int) -> list[Hashable]:
        if self.late(now):
            raise ValueError("time went back")
        self.clock = now
        self.expire(now)
        started: list[Hashable] = []
        stuck: set[str] = set()
        while self.running() < self.config.slots:
            best = None
            for order, account in enumerate(self.accounts.values()):
                head = self.head(account)
                if head is None or account.name in stuck:
                    continue
                if not self.eligible(account, head):
                    stuck.add(account.name)
                    continue
                rank = self.rank(account, head, order)
                if best is None or rank < best[0]:
                    best = (rank, account, head)
            if best is None:
                return started
            started.append(self.start(best[1], best[2]))
        return started

    def finish(self, job_id: Hashable, used: int) -> None:
        self.end(job_id, used, "finished")

    def fail(self, job_id: Hashable, used: int) -> None:
        self.end(job_id, used, "failed")

    def cancel(self, job_id: Hashable, used: int = 0) -> None:
        entry = self.entry(job_id)
        if entry.state == "running":
            self.end(job_id, used, "cancelled")
        elif entry.state in ("queued", "reserved") and self.whole(used) == 0:
            if entry.state == "reserved":
                self.unhold(entry)
            self.dequeue(entry)
            entry.state = "cancelled"
        else:
            raise ValueError(f"cannot cancel {job_id!r}")

    def balance(self, name: str) -> Balance:
        a = self.account(name)
        return Balance(a.available, a.reserved, a.spent, a.deposited)

    def state(self, job_id: Hashable) -> str:
        return self.entry(job_id).state

    # --- the parts ---------------------------------------------------------------------

    @staticmethod
    def whole(credits: object) -> int:
        return whole(credits)

    def account(self, name: str) -> Account:
        if name not in self.accounts:
            raise ValueError(f"unknown account {name!r}")
        return self.accounts[name]

    def entry(self, job_id: Hashable) -> Entry:
        if job_id not in self.entries:
            raise ValueError(f"unknown job {job_id!r}")
        return self.entries[job_id]

    def late(self, now: int) -> bool:
        return self.clock is not None and now < self.clock

    def expire(self, now: int) -> None:
        while self.expiries and self.expiries[0][0] <= now:
            _, reservation, job_id = heapq.heappop(self.expiries)
            entry = self.entries[job_id]
            if entry.state == "reserved" and entry.reservation == reservation:
                self.unhold(entry)

    def head(self, account: Account) -> Entry | None:
        while account.queue:
            entry = self.entries[account.queue[0][2]]
            if entry.state in ("queued", "reserved"):
                return entry
            heapq.heappop(account.queue)  # it left the queue: pruned now
        return None

    def running_in(self, account: Account) -> int:
        return account.running

    def running(self) -> int:
        return self.active

    def eligible(self, account: Account, head: Entry) -> bool:
        if account.limit is not None and self.running_in(account) >= account.limit:
            return False
        return head.state == "reserved" or head.job.cost <= account.available

    def rank(self, account: Account, head: Entry, order: int) -> tuple[Fraction | int, int]:
        if self.config.fair:
            return (max(account.vtime, self.vtime), order)
        return (-head.job.priority, head.seq)

    def start(self, account: Account, head: Entry) -> Hashable:
        self.dequeue(head)
        if head.state == "queued":
            self.hold(account, head)
        head.state = "running"
        account.running += 1
        self.active += 1
        if self.config.fair:
            self.vtime = max(account.vtime, self.vtime)
            account.vtime = self.vtime + Fraction(head.job.cost, account.weight)
        return head.job.id

    def dequeue(self, entry: Entry) -> None:
        """`entry` leaves its queue: at once if it is the head, else when it reaches the top."""
        queue = self.accounts[entry.job.account].queue
        if queue and queue[0][2] == entry.job.id:
            heapq.heappop(queue)

    def hold(self, account: Account, entry: Entry) -> None:
        account.available -= entry.job.cost
        account.reserved += entry.job.cost

    def unhold(self, entry: Entry) -> None:
        account = self.accounts[entry.job.account]
        account.available += entry.job.cost
        account.reserved -= entry.job.cost
        entry.state = "queued"

    def end(self, job_id: Hashable, used: int, state: str) -> None:
        entry = self.entry(job_id)
        if entry.state != "running" or not 0 <= self.whole(used) <= entry.job.cost:
            raise ValueError(f"cannot end {job_id!r} having used {used}")
        self.refund(self.accounts[entry.job.account], entry, used)
        entry.state = state

    def refund(self, account: Account, entry: Entry, used: int) -> None:
        account.running -= 1
        self.active -= 1
        account.reserved -= entry.job.cost
        account.spent += used
        account.available += entry.job.cost - used
