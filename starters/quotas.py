"""GPU quotas kata: guaranteed quotas, borrowing, preemption that never thrashes.

The kata's command line copies this file and gives it to you a step at a time:

    python -m kata start quotas   # my_quotas.py, and step 1
    python -m kata check   # the steps written so far, then the next
    python -m kata hint    # stuck? a hint (three to a step)

(or, all at once: python -m pytest --impl my_quotas.py --rubric).

Standard library only.  The full contract, with the reasons behind each
rule, is variants/quotas/README.md; in short:

- Integers throughout.  The quotas add up to at most the capacity.  A
  tenant's limit is quota + borrowing_limit (the capacity when None).
- Each tenant serves its jobs strictly in order (higher priority, then first
  submitted): only its head may start.  A head fits when its GPUs are free
  and its tenant stays within its limit (and, for a job that may not be
  preempted, the tenant's such jobs within its quota).  Heads that keep
  their tenant within its quota go before heads that would borrow; then by
  share usage / quota; then by the order the tenants were given.  While a
  head within its quota cannot start, no head borrows.
- Borrowing never preempts.  A head within its tenant's quota that does not
  fit reclaims: it preempts jobs of tenants over their quota (lowest
  priority, then latest started, then latest submitted; only while that
  tenant is still over; only jobs that ran min_run ticks), then spares each
  victim not needed, from the next-to-last back.  Otherwise a head may
  preempt its own tenant's jobs of strictly lower priority, the same way.
  All or nothing.
- A preempted job is queued again at its place, not restarted by the same
  call; its tenant loses gpus x the ticks run since its last checkpoint.
- An operation that cannot be honoured raises ValueError and changes nothing.
  Time (the `now` of every call that takes one) never goes back.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable

from variants.quotas.records import Decision, Job, Tenant


class Scheduler:
    def __init__(
        self, capacity: int, tenants: Iterable[Tenant], *, reclaim: bool = True, min_run: int = 0
    ) -> None:
        """ValueError for capacity < 1, no tenants, a name twice, a negative quota or
        borrowing limit, quotas adding up past the capacity, or min_run < 0."""
        raise NotImplementedError("Scheduler.__init__")

    def submit(self, job: Job, *, now: int) -> None:
        """Queue `job`; ValueError for one that could never run, or an id used before."""
        raise NotImplementedError("Scheduler.submit")

    def finish(self, job_id: Hashable, *, now: int) -> None:
        """A running job ends (finished); its GPUs are free at once."""
        raise NotImplementedError("Scheduler.finish")

    def cancel(self, job_id: Hashable, *, now: int) -> None:
        """A queued or running job ends (cancelled)."""
        raise NotImplementedError("Scheduler.cancel")

    def schedule(self, *, now: int) -> Decision:
        """Start heads until none can start; Decision(started in order, preempted)."""
        raise NotImplementedError("Scheduler.schedule")

    def state(self, job_id: Hashable) -> str:
        """queued, running, finished or cancelled."""
        raise NotImplementedError("Scheduler.state")

    def usage(self, tenant: str) -> int:
        """The GPUs the tenant's running jobs hold."""
        raise NotImplementedError("Scheduler.usage")

    def lost(self, tenant: str) -> int:
        """GPU-ticks of work the tenant's jobs lost to preemption."""
        raise NotImplementedError("Scheduler.lost")
