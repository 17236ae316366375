"""WRONG: a fenced complete or fail has moved the clock.

complete and fail take the time before the fencing check, so a write
refused as Fenced has passed its now, and a later call at an earlier time
is refused as time gone back.  A refused call changes nothing, and its now
has not passed (rules 1, 3).
"""

from __future__ import annotations

from collections.abc import Hashable

from gallery.leases.wrong_scans_the_queue import Queue as Written
from gallery.leases.wrong_scans_the_queue import _Lease, _Request
from variants.leases.records import Fenced, Item, Lease  # noqa: F401 (the records, read by the suite)

FAILS = "lease_validation"


class Queue(Written):
    def _writer(self, lease_id: int, item_id: Hashable, now: int) -> tuple[_Lease, _Request]:
        self._check_now(now)
        self._now = now  # the mistake: the clock moves before the fencing check
        return super()._writer(lease_id, item_id, now)
