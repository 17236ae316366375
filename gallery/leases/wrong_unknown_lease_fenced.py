"""WRONG: an unknown lease id is Fenced, not a ValueError.

Fenced means "this lease is no longer yours": the worker drops what it holds
and goes on, as it must after a pause.  A lease id that was never issued is
no such thing: it is the caller's bug (a typo, another queue's id), and a
ValueError says so (rule 6).  Raising Fenced for it hides the bug as an
ordinary expiry.
"""

from __future__ import annotations

from gallery.leases.wrong_scans_the_queue import Queue as Written
from gallery.leases.wrong_scans_the_queue import _Lease
from variants.leases.records import Fenced, Item, Lease  # noqa: F401 (the records, read by the suite)

FAILS = "lease_validation"


class Queue(Written):
    def _get_lease(self, lease_id: int) -> _Lease:
        try:
            return super()._get_lease(lease_id)
        except ValueError:  # the mistake: an id never issued taken for one that lapsed
            raise Fenced(f"lease {lease_id!r} is not live") from None
