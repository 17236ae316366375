"""WRONG: expiry tested as a ratio, `(now - renewed_at) / lease_ticks > 1`.

The same inequality on paper, not in a float: at lease_ticks 2**62 one tick
past the boundary is a ratio of 1 + 2**-62, which rounds to 1.0, so an
expired lease is still live, takes writes and renewals, and its requests
never come back.  Compare the integers: `now - renewed_at > lease_ticks`.
"""

from __future__ import annotations

from gallery.leases.wrong_scans_the_queue import Queue as Written
from gallery.leases.wrong_scans_the_queue import _Lease
from variants.leases.records import Fenced, Item, Lease  # noqa: F401 (the records, read by the suite)

FAILS = "lease_expiry"


class Queue(Written):
    def _expired(self, lease: _Lease, now: int) -> bool:
        return (now - lease.renewed_at) / self._lease_ticks > 1  # the mistake: a float ratio
