"""A claim and an expiry read a partial index, never scan the queue: their query
plans, asked of each database with 20,000 requests queued."""

from __future__ import annotations

from random import Random

import pytest

from tests.service.conftest import Clock
from tests.service.test_store import MakeStore, batch
from variants.jobs.backends import PostgresStore
from variants.jobs.store import CLAIM, EXPIRE, Store

pytestmark = pytest.mark.reference
QUEUED = 20_000


def plan(store: Store, statement: str, params: list[int]) -> str:
    explain = "EXPLAIN" if isinstance(store, PostgresStore) else "EXPLAIN QUERY PLAN"
    with store.transaction():  # EXPLAIN of an UPDATE runs nothing, but in a transaction anyway
        rows = store.sql(f"{explain} {statement}", params).fetchall()
    return "\n".join(str(row[-1]) for row in rows)


def filled(make_store: MakeStore) -> Store:
    store = make_store()
    store.submit("b", batch(QUEUED))
    with store.transaction():  # the ended leases a queue that has run for a while keeps
        store.sql(
            "INSERT INTO leases (worker, claimed_at, deadline, state)"
            " SELECT 'old', 0, 0, 'over' FROM requests"
        )
    for _ in range(50):  # and some live ones
        store.claim("w", limit=4, rng=Random(0))
    store.sql("ANALYZE")  # the planner's statistics, as after autovacuum on a real queue
    return store


def test_a_claim_reads_the_ready_index_in_order(make_store: MakeStore, clock: Clock) -> None:
    store = filled(make_store)
    text = plan(store, CLAIM.format(lock=store.claim_lock), [clock.now, 16, 1])
    assert "requests_ready" in text, text
    for scan in ("SCAN requests\n", "Seq Scan on requests", "TEMP B-TREE", "Sort"):
        assert scan not in text + "\n", f"the claim scans or sorts the queue:\n{text}"


def test_an_expiry_reads_the_live_leases_by_deadline(make_store: MakeStore, clock: Clock) -> None:
    store = filled(make_store)
    text = plan(store, EXPIRE, [clock.now])
    assert "leases_live" in text, text
    assert "Seq Scan on leases" not in text, text
    assert "SCAN leases\n" not in text + "\n", text
