"""WRONG: a waiting request turns ready only when a claim looks at it.

A request waiting out its backoff is flipped to ready by a claim's scan,
so item() reports it waiting after other calls have moved the clock past its
time.  item tells waiting from ready by the latest now passed, whatever the
call (rule 5).
"""

from __future__ import annotations

from gallery.leases.wrong_scans_the_queue import Queue as Written
from gallery.leases.wrong_scans_the_queue import _Request
from variants.leases.records import Fenced, Item, Lease  # noqa: F401 (the records, read by the suite)

FAILS = "lease_claims"


class Queue(Written):
    def _send_back(self, request: _Request, now: int, delay: int) -> None:
        super()._send_back(request, now, delay)
        if delay:
            request.status = "waiting"  # the mistake: a status of its own...

    def _claimable(self, request: _Request, now: int) -> bool:
        if request.status == "waiting" and request.ready_at <= now:
            request.status = "queued"  # ...which only a claim's scan changes back
        return super()._claimable(request, now)
