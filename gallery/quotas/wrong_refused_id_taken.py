"""WRONG: submit takes the job's id before checking the job, so a refused job's id stays taken.

The id is registered first and the job queued only once it is checked: a
job of 0 GPUs is refused, and never queued, but its id stays registered.
`state(id)` says "queued" for a job no queue holds and no schedule will
start, and a valid job with the same id is now a duplicate.  An operation
that raises changes nothing: check everything, then record (rule 6).
"""

from __future__ import annotations

from gallery.quotas.wrong_rescans_every_job import Scheduler as Written
from gallery.quotas.wrong_rescans_every_job import _Account, _Ticket
from variants.quotas.records import Decision, Job, Tenant  # noqa: F401 (the records, read by the suite)

FAILS = "quota_validation"

UNQUEUED = -1  # the serial of a ticket registered but given no place in a queue yet


class Scheduler(Written):
    def submit(self, job: Job, *, now: int) -> None:
        self._check_now(now)
        account = self._account(job.tenant)
        if self._used_before(job.id):
            raise ValueError(f"job id {job.id!r} used before")
        ticket = self._tickets[job.id] = _Ticket(job, UNQUEUED)  # the mistake: before the checks
        self._check_job(job, account)
        self._now = now
        ticket.serial = self._serial  # queued: its place in its tenant's queue
        self._serial += 1

    def _head(self, account: _Account) -> _Ticket | None:
        # As written, over the tickets given a place in a queue (the registry also holds ids).
        queued = [
            t
            for t in self._tickets.values()
            if t.status == "queued" and t.serial != UNQUEUED and t.job.tenant == account.name
        ]
        if not queued:
            return None
        return min(queued, key=self._queue_rank)
