"""WRONG: a request exactly on a boundary goes to the bucket above it.

With boundaries (4, 8), 4 tokens belongs to "up to 4"; bisect_right puts it
with the 5-to-8s, padded to twice its length.  Use bisect_left, and test the
boundary itself.
"""

from __future__ import annotations

from bisect import bisect_right

from gallery.batcher.right_rescan import Batcher as Written
from gallery.batcher.right_rescan import (  # noqa: F401 (its own types, read by the suite)
    Closed,
    Config,
    QueueFull,
    Request,
)

FAILS = "batch_buckets"


class Batcher(Written):
    def _bucket(self, tokens: int) -> int:
        return bisect_right(self.config.buckets, tokens)  # the mistake: right, not left
