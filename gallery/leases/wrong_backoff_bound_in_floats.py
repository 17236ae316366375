"""WRONG: the backoff's bound computed with a float power, `base * math.pow(2, k)`.

Exact on paper, rounded in a float: at base 2**60 + 1 the bound comes out
2**60, so a request can be ready a tick before its backoff allows, and past
2**1023 math.pow overflows.  The delay is an integer draw from an integer
range: `base * 2 ** (attempts - 1)` (or a shift), capped, in ints (rule 9).
"""

from __future__ import annotations

import math

from gallery.leases.wrong_scans_the_queue import Queue as Written
from variants.leases.records import Fenced, Item, Lease  # noqa: F401 (the records, read by the suite)

FAILS = "lease_retries"


class Queue(Written):
    def _ceiling(self, attempts: int) -> int:
        return min(self._cap, int(self._base * math.pow(2, attempts - 1)))  # the mistake
