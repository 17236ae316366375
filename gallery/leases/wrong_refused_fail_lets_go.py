"""WRONG: a refused `fail` has already let the request go.

`fail` takes the request off its lease, then finds that `error` is not a
str and raises: the caller's mistake is refused, but the lease no longer
holds the request, so the worker's next, correct `complete` is Fenced and
the request is stranded until its lease lapses.  An operation that raises
changes nothing: every check before the first change (rule 3).
"""

from __future__ import annotations

from collections.abc import Hashable

from gallery.leases.wrong_scans_the_queue import Queue as Written
from variants.leases.records import Fenced, Item, Lease  # noqa: F401 (the records, read by the suite)

FAILS = "lease_validation"


class Queue(Written):
    def fail(self, lease_id: int, item_id: Hashable, error: str, *, now: int) -> None:
        lease, _ = self._writer(lease_id, item_id, now)
        given: object = error  # whatever the caller passed, str or not
        if not isinstance(given, str):
            self._end_held(lease, item_id)  # the mistake: let go before the check
            raise ValueError(f"error is not a str: {error!r}")
        super().fail(lease_id, item_id, error, now=now)
