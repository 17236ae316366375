"""Turns between batches: a claim serves the batch with a request ready that was served
least recently (never served first of all, then the one whose first request has waited
longest), so a small batch behind a large one waits one lease, not the large batch.
And a store made before the turns opens, is brought up to date, and takes them."""

from __future__ import annotations

import sqlite3
from random import Random
from typing import Any

import psycopg
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.service.conftest import STORES, Clock, fresh_store
from tests.service.test_store import MakeStore, batch
from variants.jobs.backends import open_store
from variants.jobs.intake import Submitted
from variants.jobs.store import Lease, Settings, Store

pytestmark = pytest.mark.reference


def claimed(lease: Lease | None) -> list[str]:
    return [] if lease is None else [request.custom_id for request in lease.requests]


def test_a_small_batch_behind_a_large_one_is_served_next(
    make_store: MakeStore, clock: Clock
) -> None:
    store = make_store()
    store.submit("large", batch(2_000, prefix="l"))
    clock.now += 1
    store.submit("small", batch(20, prefix="s"))
    assert claimed(store.claim("w", limit=64, rng=Random(0))) == [f"l{n}" for n in range(64)]
    assert claimed(store.claim("w", limit=64, rng=Random(0))) == [f"s{n}" for n in range(20)]
    assert claimed(store.claim("w", limit=2, rng=Random(0))) == ["l64", "l65"]


def test_batches_take_turns_until_each_is_drained(make_store: MakeStore, clock: Clock) -> None:
    store = make_store()
    for name, count in (("a", 5), ("b", 5), ("c", 2)):
        store.submit(name, batch(count, prefix=name))
        clock.now += 1
    turns = [claimed(store.claim("w", limit=2, rng=Random(0))) for _ in range(8)]
    assert turns == [
        ["a0", "a1"],
        ["b0", "b1"],
        ["c0", "c1"],
        ["a2", "a3"],
        ["b2", "b3"],
        ["a4"],
        ["b4"],
        [],
    ]


def test_a_batch_with_nothing_ready_yet_gives_its_turn_away(
    make_store: MakeStore, clock: Clock
) -> None:
    """A batch whose requests all wait out a backoff is passed by, not waited for."""
    store = make_store(base_ms=1_000, cap_ms=1_000)
    store.submit("a", batch(1, prefix="a"))
    clock.now += 1
    store.submit("b", batch(2, prefix="b"))
    lease = store.claim("w", limit=1, rng=Random(0))
    assert lease is not None
    store.release(lease.id)  # ready again at once: a's turn was taken, so b's is next
    assert claimed(store.claim("w", limit=1, rng=Random(0))) == ["b0"]
    assert claimed(store.claim("w", limit=1, rng=Random(0))) == ["a0"]


turn_calls = st.one_of(
    st.tuples(st.just("submit"), st.integers(1, 5)),
    st.tuples(st.just("claim"), st.integers(1, 4)),
    st.tuples(st.just("tick"), st.integers(0, 3)),
)


class Turns:
    """The rule, written out: each claim's batch and requests, from the batches' queues."""

    def __init__(self) -> None:
        self.queued: dict[str, list[str]] = {}  # in submission order: all ready at submission
        self.submitted_at: dict[str, int] = {}
        self.served: dict[str, int] = {}  # a batch's latest lease

    def submit(self, batch_id: str, custom_ids: list[str], now: int) -> None:
        self.queued[batch_id], self.submitted_at[batch_id] = list(custom_ids), now

    def claim(self, limit: int) -> tuple[str, list[str]] | None:
        ready = [batch_id for batch_id, waiting in self.queued.items() if waiting]
        if not ready:
            return None
        turn = min(ready, key=lambda b: (self.served.get(b, 0), self.submitted_at[b], b))
        taken, self.queued[turn] = self.queued[turn][:limit], self.queued[turn][limit:]
        return turn, taken


@pytest.mark.parametrize("kind", STORES)
@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(st.lists(turn_calls, max_size=25))
def test_each_claim_serves_the_batch_whose_turn_it_is(
    kind: str, postgres_or_none: str | None, script: list[tuple[Any, ...]]
) -> None:
    clock = Clock()
    store = fresh_store(kind, postgres_or_none, clock)
    rule = Turns()
    try:
        for number, (name, argument) in enumerate(script):
            if name == "tick":
                clock.now += argument
            elif name == "submit":
                batch_id = f"b{number:02d}"  # ids in the order submitted, as ties are broken
                requests = [Submitted(f"{batch_id}-{n}", {}, 1) for n in range(argument)]
                store.submit(batch_id, requests)
                rule.submit(batch_id, [r.custom_id for r in requests], clock.now)
            else:
                expected = rule.claim(argument)
                lease = store.claim("w", limit=argument, rng=Random(0))
                assert claimed(lease) == ([] if expected is None else expected[1])
                if lease is not None and expected is not None:
                    rule.served[expected[0]] = lease.id
    finally:
        store.close()


# The schema as the version before the turns made it (git show f81dc3a:variants/jobs/backends.py).
OLD_SCHEMA = """
CREATE TABLE batches (
    id TEXT PRIMARY KEY, digest TEXT NOT NULL, size INTEGER NOT NULL,
    created_at BIGINT NOT NULL, expires_at BIGINT NOT NULL, canceled_at BIGINT,
    swept INTEGER NOT NULL DEFAULT 0);
CREATE INDEX batches_open ON batches (expires_at) WHERE swept = 0;
CREATE TABLE requests (
    id {identity}, batch_id TEXT NOT NULL REFERENCES batches (id),
    custom_id TEXT NOT NULL, params TEXT NOT NULL, tokens INTEGER NOT NULL,
    state TEXT NOT NULL DEFAULT 'queued', ready_at BIGINT NOT NULL,
    attempts INTEGER NOT NULL DEFAULT 0, lease_id BIGINT, error TEXT, ended_at BIGINT,
    UNIQUE (batch_id, custom_id));
CREATE INDEX requests_ready ON requests (ready_at, id) WHERE state = 'queued';
CREATE INDEX requests_leased ON requests (lease_id) WHERE state = 'leased';
CREATE TABLE leases (
    id {identity}, worker TEXT NOT NULL, claimed_at BIGINT NOT NULL,
    deadline BIGINT NOT NULL, state TEXT NOT NULL);
CREATE INDEX leases_live ON leases (deadline, id) WHERE state = 'live';
CREATE TABLE results (
    request_id BIGINT PRIMARY KEY REFERENCES requests (id),
    lease_id BIGINT NOT NULL, output TEXT NOT NULL, written_at BIGINT NOT NULL);
CREATE TABLE counters (name TEXT PRIMARY KEY, value BIGINT NOT NULL);
CREATE TABLE workers (
    name TEXT PRIMARY KEY, started_at BIGINT NOT NULL, seen_at BIGINT NOT NULL,
    alive_ms BIGINT NOT NULL DEFAULT 0, busy_ms BIGINT NOT NULL DEFAULT 0,
    done BIGINT NOT NULL DEFAULT 0);
INSERT INTO batches (id, digest, size, created_at, expires_at) VALUES ('old', '', 3, 0, 10000000);
INSERT INTO requests (batch_id, custom_id, params, tokens, ready_at, state, attempts, lease_id)
    VALUES ('old', 'o0', '{{}}', 1, 0, 'leased', 1, 1),
           ('old', 'o1', '{{}}', 1, 0, 'queued', 0, NULL),
           ('old', 'o2', '{{}}', 1, 0, 'queued', 0, NULL);
INSERT INTO leases (worker, claimed_at, deadline, state) VALUES ('gone', 0, 100, 'live');
INSERT INTO counters (name, value) VALUES ('retries', 4), ('leases_expired', 1)
"""


def made_by_the_old_version(store_url: str) -> None:
    if store_url.startswith("sqlite:"):
        with sqlite3.connect(store_url.removeprefix("sqlite:")) as db:
            db.executescript(OLD_SCHEMA.format(identity="INTEGER PRIMARY KEY"))
        return
    identity = "BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY"
    with psycopg.connect(store_url, autocommit=True) as server, server.transaction():
        for statement in OLD_SCHEMA.format(identity=identity).split(";"):
            server.execute(statement)


def test_a_store_made_before_the_turns_opens_and_takes_them(store_url: str, clock: Clock) -> None:
    """Its leases' batch is added (the old ones count as no batch's), its counters kept."""
    made_by_the_old_version(store_url)
    store: Store
    with open_store(store_url, Settings(lease_ms=50, base_ms=1, cap_ms=1), clock=clock) as store:
        assert store.counters() == {"leases_expired": 1, "retries": 4, "dead_letters": 0}
        store.submit("new", batch(2, prefix="n"))
        lease = store.claim("w", limit=8, rng=Random(0))  # expires the old lease, as it did
        assert claimed(lease) == ["o1", "o2"]
        assert claimed(store.claim("w", limit=8, rng=Random(0))) == ["n0", "n1"]
        clock.now += 10  # past o0's backoff
        assert claimed(store.claim("w", limit=8, rng=Random(0))) == ["o0"]
        assert store.counters()["leases_expired"] == 2
    with open_store(store_url, Settings(), clock=clock) as again:  # up to date: opened as it is
        assert again.status("old").counts["processing"] == 3
