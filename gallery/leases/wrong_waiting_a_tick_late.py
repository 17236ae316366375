"""WRONG: a request waiting out a backoff is ready a tick late, after now + delay.

A failed attempt sent back with a delay is ready at now + delay and not
before (rule 5): at that very tick a claim takes it and item() says ready.
Reading "until its backoff has passed" as "until now + delay has gone by"
makes it ready only at the tick after, so every retry with a positive delay
waits one tick more than it drew, and a claim at now + delay gets nothing.
(A delay of 0 still sends it back ready at once.)
"""

from __future__ import annotations

from gallery.leases.wrong_scans_the_queue import Queue as Written
from gallery.leases.wrong_scans_the_queue import _Request
from variants.leases.records import Fenced, Item, Lease  # noqa: F401 (the records, read by the suite)

FAILS = "lease_claims"


class Queue(Written):
    def _send_back(self, request: _Request, now: int, delay: int) -> None:
        request.status = "queued"
        request.ready_at = now + delay + 1 if delay else now  # the mistake: after, not at
