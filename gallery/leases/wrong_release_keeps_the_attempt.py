"""WRONG: a released request keeps the attempt it was given back.

A release is a worker's graceful exit, a spot notice: the request was not
tried and failed, so its attempt is not counted (rule 10).  Keeping it
counted sends a request preempted max_attempts times to the dead letters
without a single failure.
"""

from __future__ import annotations

from gallery.leases.wrong_scans_the_queue import Queue as Written
from gallery.leases.wrong_scans_the_queue import _Request
from variants.leases.records import Fenced, Item, Lease  # noqa: F401 (the records, read by the suite)

FAILS = "lease_retries"


class Queue(Written):
    def _give_back(self, request: _Request) -> None:
        pass  # the mistake: the attempt stays counted
