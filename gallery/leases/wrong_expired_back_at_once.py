"""WRONG: a request whose lease expired is ready again at once, with no backoff.

An expired lease is a failed attempt (rule 8): the request waits out full
jitter like any other failure, and the draw is made (rule 9).  Sending it
straight back, as a visibility timeout does, retries at once a request that
may be what killed its worker, on the next worker and the next, and every
later draw goes to the wrong request.
"""

from __future__ import annotations

from gallery.leases.wrong_scans_the_queue import EXPIRED, _Request
from gallery.leases.wrong_scans_the_queue import Queue as Written
from variants.leases.records import Fenced, Item, Lease  # noqa: F401 (the records, read by the suite)

FAILS = "lease_claims"


class Queue(Written):
    def _expired_attempt(self, request: _Request, now: int) -> None:
        request.lease, request.error = None, EXPIRED
        if self._retried(request):
            self._send_back(request, now, 0)  # the mistake: back at once, no backoff drawn
        else:
            self._bury(request, EXPIRED)
