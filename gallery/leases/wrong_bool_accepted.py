"""WRONG: True and False accepted as the ints 1 and 0.

In Python a bool is an int, so isinstance(True, int) holds: max_attempts=True
makes a queue that tries each request once, limit=True a claim of one.
Almost certainly a caller's mistake, which the queue should refuse: a bool
is a ValueError (rule 1).
"""

from __future__ import annotations

from gallery.leases.wrong_scans_the_queue import Queue as Written
from variants.leases.records import Fenced, Item, Lease  # noqa: F401 (the records, read by the suite)

FAILS = "lease_validation"


class Queue(Written):
    @staticmethod
    def _is_int(value: object) -> bool:
        return isinstance(value, int)  # the mistake: a bool is an int to isinstance
