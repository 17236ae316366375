"""A claim and an expiry read partial indexes, never scan the queue: their query plans,
asked of each database with 20,000 requests queued in 8 batches.

A claim is three statements: TURNS finds the batches with a request queued (a probe of
requests_batch_ready a batch) and the latest lease of each (leases_batch), CLAIM reads
B rows of the chosen batch's ready requests in order, and EXPIRE the live leases past
their deadline.  LIST, the `list` command's, reads the requests of the batches it lists,
never the table once a batch."""

from __future__ import annotations

import re
from collections.abc import Iterator
from random import Random

import pytest

from tests.service.conftest import STORES, Clock, new_schema
from tests.service.test_store import batch
from variants.jobs.backends import PostgresStore, open_store
from variants.jobs.store import CLAIM, EXPIRE, LIST, TURNS, Settings, Store

pytestmark = pytest.mark.reference
QUEUED, BATCHES = 20_000, 8
NOW = 1_000  # the store's clock, in the tests' hands
# A table read whole, or sorted: SQLite's SCAN without an index, or a temporary b-tree;
# PostgreSQL's sequential scan, or a sort.
SCANS = re.compile(
    r"^SCAN (requests|leases|r|l)$|TEMP B-TREE|Seq Scan on (requests|leases)|Sort", re.MULTILINE
)


def plan(store: Store, statement: str, params: list[object], *, run: bool = False) -> str:
    """The plan; `run`, a statement that only reads: on PostgreSQL, run, as its plan shows the
    recursive step of a WITH RECURSIVE only then."""
    explain = "EXPLAIN" if isinstance(store, PostgresStore) else "EXPLAIN QUERY PLAN"
    if run and isinstance(store, PostgresStore):
        explain = "EXPLAIN (ANALYZE, COSTS OFF)"
    with store.transaction():  # EXPLAIN of an UPDATE runs nothing, but in a transaction anyway
        rows = store.sql(f"{explain} {statement}", params).fetchall()
    return "\n".join(str(row[-1]).strip() for row in rows)


@pytest.fixture(scope="module", params=STORES)
def filled(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Store]:
    """A store of each kind with QUEUED requests in BATCHES batches, the ended leases a queue
    that has run for a while keeps, and some live ones; made once, only read."""
    if request.param == "sqlite":
        url = f"sqlite:{tmp_path_factory.mktemp('plans') / 'jobs.db'}"
    else:
        url = new_schema(request.getfixturevalue("postgres"))
    store = open_store(url, Settings(), clock=Clock(NOW))
    for number in range(BATCHES):
        store.submit(f"b{number}", batch(QUEUED // BATCHES, prefix=f"b{number}-"))
    with store.transaction():
        store.sql(
            "INSERT INTO leases (worker, claimed_at, deadline, state, batch_id)"
            " SELECT 'old', 0, 0, 'over', batch_id FROM requests"
        )
    for _ in range(50):
        store.claim("w", limit=4, rng=Random(0))
    store.sql("ANALYZE")  # the planner's statistics, as after autovacuum on a real queue
    yield store
    store.close()


def test_the_turns_probe_each_batch_through_the_indexes(filled: Store) -> None:
    text = plan(filled, TURNS, [], run=True)
    assert text.count("requests_batch_ready") >= 2, f"the step and the first ready:\n{text}"
    assert "leases_batch" in text, text
    assert not SCANS.search(text), f"finding the batches scans or sorts a table:\n{text}"


def test_a_claim_reads_its_batchs_ready_requests_in_order(filled: Store) -> None:
    text = plan(filled, CLAIM.format(lock=filled.claim_lock), ["b3", NOW, 16, 1])
    assert "requests_batch_ready" in text, text
    assert not SCANS.search(text), f"the claim scans or sorts the queue:\n{text}"


def test_an_expiry_reads_the_live_leases_by_deadline(filled: Store) -> None:
    text = plan(filled, EXPIRE.format(lock=filled.claim_lock), [NOW])
    assert "leases_live" in text, text
    assert not SCANS.search(text), f"the expiry scans the leases:\n{text}"


def test_a_claim_costs_a_probe_a_batch_not_a_request(filled: Store) -> None:
    """The loose index scan finds each batch with a request queued once, however many of its
    requests are queued: as many rows as batches, not as requests."""
    rows = filled.sql(TURNS).fetchall()
    assert sorted(row[0] for row in rows) == [f"b{n}" for n in range(BATCHES)]


def test_a_list_reads_its_batches_requests_never_the_table_once_a_batch(filled: Store) -> None:
    """SQLite finds each listed batch's requests by the batch's key (batch_id, custom_id).
    PostgreSQL's planner chooses by cost: by that index while the listed batches are a small
    share of the table, else one pass over it (here, 2 of 8 batches); never a pass a batch."""
    text = plan(filled, LIST, [2], run=True)
    if isinstance(filled, PostgresStore):
        per_batch = re.search(r"Seq Scan on requests r \(.*loops=([2-9]|\d\d)", text)
        assert not per_batch, f"the list reads the requests once a batch:\n{text}"
    else:
        assert "SEARCH r USING INDEX sqlite_autoindex_requests_1 (batch_id=?)" in text, text
        assert "SCAN batches USING INDEX batches_created" in text, text
    assert [status.batch_id for status in filled.batches(limit=2)] == ["b7", "b6"]
