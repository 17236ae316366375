"""WRONG: a lease is not over when every request it held has ended.

Once every request a lease held has been completed, failed, released or
expired, the lease is over (rule 7): a renew or a release of it is Fenced.
Here the emptied lease lives on, and a worker renewing it believes it still
holds work.
"""

from __future__ import annotations

from collections.abc import Hashable

from gallery.leases.wrong_scans_the_queue import Queue as Written
from gallery.leases.wrong_scans_the_queue import _Lease
from variants.leases.records import Fenced, Item, Lease  # noqa: F401 (the records, read by the suite)

FAILS = "lease_fencing"


class Queue(Written):
    def _end_held(self, lease: _Lease, item_id: Hashable) -> None:
        if item_id in lease.held:
            lease.held.remove(item_id)  # the mistake: never over when emptied
