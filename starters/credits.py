"""Credit scheduler kata: accounts hold credits, jobs cost credits, nobody overspends.

The kata's command line copies this file and gives it to you a step at a time:

    python -m kata start credits   # my_credits.py, and step 1
    python -m kata check   # the steps written so far, then the next
    python -m kata hint    # stuck? a hint (three to a step)

(or, all at once: python -m pytest --impl my_credits.py --rubric).

Standard library only.  The full contract, with the reasons behind each
rule, is variants/credits/README.md; in short:

- Credits are integers.  For every account, always:
  deposited == available + reserved + spent, and none is negative.
- A job holds its cost (available -> reserved) from its start, or from an
  earlier reserve(), until it ends; then what it used is spent and the rest
  goes back to available, once.
- schedule(now) first releases the reservations whose time is up
  (now >= reserved at + ttl), then starts jobs while fewer than
  `slots` run.  Each account serves its own jobs strictly in order (higher
  priority, then first submitted): if its head cannot start (too few
  credits, or max_running jobs running) none of its jobs start.  Across
  accounts, best effort: the next account is the one whose head comes first
  by (priority, submission), or with Config(fair=True) the one with the
  least virtual time max(its own, the scheduler's), ties by opening order;
  starting a job sets the scheduler's virtual time to that value and the
  account's to it plus cost / weight.
- An operation that cannot be honoured raises ValueError and changes nothing.
  Time (the `now` of reserve and schedule) never goes back.
"""

from __future__ import annotations

from collections.abc import Hashable

from variants.credits.records import Balance, Config, Job


class Scheduler:
    def __init__(self, config: Config) -> None:
        """ValueError for config.slots < 1: the record is plain, the check is yours."""
        raise NotImplementedError("Scheduler.__init__")

    def open_account(self, name: str, *, weight: int = 1, max_running: int | None = None) -> None:
        """A new account with no credits.  ValueError if it exists, weight < 1, max_running < 1."""
        raise NotImplementedError("Scheduler.open_account")

    def deposit(self, name: str, amount: int) -> None:
        """Add `amount` (>= 1) credits to the account's available credits."""
        raise NotImplementedError("Scheduler.deposit")

    def submit(self, job: Job) -> None:
        """Queue `job` (its cost >= 1, its id new, its account open); it holds nothing yet."""
        raise NotImplementedError("Scheduler.submit")

    def reserve(self, job_id: Hashable, *, now: int, ttl: int) -> None:
        """Hold a queued job's cost from available; ValueError if the account cannot pay."""
        raise NotImplementedError("Scheduler.reserve")

    def release(self, job_id: Hashable) -> None:
        """A reserved job gives its credits back and is queued again."""
        raise NotImplementedError("Scheduler.release")

    def schedule(self, *, now: int) -> list[Hashable]:
        """Release expired reservations, then start what can start: the ids, in order."""
        raise NotImplementedError("Scheduler.schedule")

    def finish(self, job_id: Hashable, used: int) -> None:
        """A running job ends: `used` (0..cost) spent, the rest refunded."""
        raise NotImplementedError("Scheduler.finish")

    def fail(self, job_id: Hashable, used: int) -> None:
        """As finish, the job's state "failed"."""
        raise NotImplementedError("Scheduler.fail")

    def cancel(self, job_id: Hashable, used: int = 0) -> None:
        """A waiting job ends (its reservation released); a running one ends as finish does."""
        raise NotImplementedError("Scheduler.cancel")

    def balance(self, name: str) -> Balance:
        raise NotImplementedError("Scheduler.balance")

    def state(self, job_id: Hashable) -> str:
        """One of queued, reserved, running, finished, failed, cancelled."""
        raise NotImplementedError("Scheduler.state")
