"""WRONG: every call moves the clock as soon as its time is checked, refused or not.

The time is taken first and the call checked after: a submit refused for an
id used before, a claim of 0, a renew of an unknown lease have all passed
their `now`, and a later call at an earlier time is refused as time gone
back.  A refused call changes nothing, and its time has not passed: take
the time last, once the call is sure to succeed (rules 1, 3).
"""

from __future__ import annotations

from gallery.leases.wrong_scans_the_queue import Queue as Written
from variants.leases.records import Fenced, Item, Lease  # noqa: F401 (the records, read by the suite)

FAILS = "lease_validation"


class Queue(Written):
    def _check_now(self, now: int) -> None:
        super()._check_now(now)
        self._now = now  # the mistake: the clock moves before the call is checked
