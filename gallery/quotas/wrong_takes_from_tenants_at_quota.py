"""WRONG: reclaim takes candidates with no check that their tenant is still over its quota.

A tenant one GPU over its quota loses all its newest jobs, down below its
own guarantee, which it then reclaims in turn: reclaim becomes thrashing.
A candidate is taken only while its tenant, less what was already taken
from it, is over its quota (rules 11 and 13).
"""

from __future__ import annotations

from gallery.quotas.wrong_rescans_every_job import Scheduler as Written
from gallery.quotas.wrong_rescans_every_job import _Account, _Ticket
from variants.quotas.records import Decision, Job, Tenant  # noqa: F401 (the records, read by the suite)

FAILS = "quota_reclaim"


class Scheduler(Written):
    def _still_over(self, owner: _Account, taken_from: dict[str, int], cand: _Ticket) -> bool:
        return True  # the mistake: a tenant gives back what it holds within its quota too
