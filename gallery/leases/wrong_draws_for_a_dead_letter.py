"""WRONG: the attempt that dead-letters a request still draws a backoff.

The draw is made first and the verdict after: a request at max_attempts is
buried as it should be, but the random draw it took belongs to the next
failure.  Every backoff after a dead letter is then the one meant for the
failure before it, and a replay of the same seed no longer gives the same
schedule (rule 9: one draw per failure that is retried, none for a dead
letter).
"""

from __future__ import annotations

from gallery.leases.wrong_scans_the_queue import Queue as Written
from gallery.leases.wrong_scans_the_queue import _Request
from variants.leases.records import Fenced, Item, Lease  # noqa: F401 (the records, read by the suite)

FAILS = "lease_retries"


class Queue(Written):
    def _failed_attempt(self, request: _Request, error: str, now: int) -> None:
        self._count_failure(request)
        request.lease = None
        delay = self._rng.randint(0, self._ceiling(request.attempts))  # the mistake: drawn first
        if self._retried(request):
            request.error = error
            self._send_back(request, now, delay)
        else:
            self._bury(request, error)
