"""Leases for a batch-inference queue: claim, renew, complete, fail, expire, fenced.

The contract a candidate implements is `Queue` and its records; see
`variants/leases/README.md`.
"""

from variants.leases.core import Queue
from variants.leases.records import STATUSES, Fenced, Item, Lease

__all__ = ["STATUSES", "Fenced", "Item", "Lease", "Queue"]
