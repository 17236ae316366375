"""A claim pops heaps: its work grows neither with the requests queued nor with the leases
outstanding."""

from __future__ import annotations

import pytest

from kata.checks import expect
from kata.cost import Growth
from kata.impl import Implementation
from tests.support.leasing import cost, cost_among_leases

pytestmark = [pytest.mark.lease_cost, pytest.mark.rules(12)]

JOBS = 200
LIMIT = 3.0  # log n grows ~1.4x for 8x the requests; a scan 8x
RULE = (
    "keep the queued requests in a heap by the time they are ready (and the leases in one by "
    "their deadline), pruned lazily: a claim pops what it takes, never scans the queue."
)


def test_a_claim_costs_the_same_with_eight_times_the_requests_queued(
    impl: Implementation,
) -> None:
    expect(impl, cost(JOBS, LIMIT), Growth(level=True, limit=LIMIT, unit="claim"), rule=RULE)


def test_a_claim_costs_the_same_with_eight_times_the_leases_outstanding(
    impl: Implementation,
) -> None:
    """A claim expires what is due first: from the deadline heap's top, never by looking at
    every lease (the live ones are not due, and ended ones are nobody's business)."""
    expect(
        impl,
        cost_among_leases(JOBS, LIMIT),
        Growth(level=True, limit=LIMIT, unit="claim"),
        rule=RULE,
    )
