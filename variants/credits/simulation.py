"""What fair share buys, in a seeded simulation: three accounts contending for GPUs.

Every account keeps a backlog (it submits whenever fewer than ten of its
jobs wait), so the GPUs are always contended; one account submits all its
jobs at priority 9.  A job runs for as many ticks as it costs, and uses all
of it.  By priority, the priority-9 account takes every GPU and the others
starve; with fair share the GPUs divide by weight.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from random import Random

from variants.credits.core import Scheduler
from variants.credits.records import Config, Job

ACCOUNTS = (("research", 1, 9), ("prod", 2, 0), ("batch", 1, 0))  # name, weight, priority
SLOTS, TICKS, BACKLOG = 8, 20_000, 10


@dataclass(frozen=True)
class Share:
    account: str
    weight: int
    service: int  # GPU-ticks started
    share: Fraction  # of all the service
    jobs: int
    longest_wait: int  # ticks from submission to start, or to the end if never started


def contend(*, fair: bool, seed: int = 1, ticks: int = TICKS) -> list[Share]:
    rng, scheduler = Random(seed), Scheduler(Config(SLOTS, fair=fair))
    for name, weight, _ in ACCOUNTS:
        scheduler.open_account(name, weight=weight)
        scheduler.deposit(name, 10**12)
    waiting = {name: 0 for name, _, _ in ACCOUNTS}
    submitted: dict[str, tuple[int, str, int]] = {}  # job -> (submitted at, account, cost)
    ends: dict[int, list[str]] = {}
    service = dict.fromkeys(waiting, 0)
    jobs, longest = dict.fromkeys(waiting, 0), dict.fromkeys(waiting, 0)
    count, costs = 0, dict[str, int]()
    for now in range(ticks):
        for job_id in ends.pop(now, []):
            scheduler.finish(job_id, costs.pop(job_id))
        for name, _, priority in ACCOUNTS:
            while waiting[name] < BACKLOG:
                cost, job_id = rng.randint(1, 40), f"{name}-{count}"
                count += 1
                scheduler.submit(Job(job_id, name, cost, priority))
                submitted[job_id] = (now, name, cost)
                waiting[name] += 1
        for started in scheduler.schedule(now=now):
            job_id = str(started)
            at, name, cost = submitted.pop(job_id)
            waiting[name] -= 1
            service[name] += cost
            jobs[name] += 1
            longest[name] = max(longest[name], now - at)
            ends.setdefault(now + cost, []).append(job_id)
            costs[job_id] = cost
    for at, name, _ in submitted.values():  # never started: waiting still
        longest[name] = max(longest[name], ticks - at)
    total = sum(service.values())
    return [
        Share(
            name, weight, service[name], Fraction(service[name], total), jobs[name], longest[name]
        )
        for name, weight, _ in ACCOUNTS
    ]
