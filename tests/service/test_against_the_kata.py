"""The SQL store against the lease exercise's reference, the oracle: the same calls
on both, the same answers, the same states after every call, the same jitter.

The oracle is one queue; the store takes turns between batches (test_turns.py), and
within one batch it is the oracle's queue: so each script runs on one batch."""

from __future__ import annotations

from random import Random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.service.conftest import STORES, Clock, fresh_store
from variants.jobs.intake import Submitted
from variants.jobs.model import Failed
from variants.jobs.store import Fenced, Lease, Store
from variants.leases.core import Queue
from variants.leases.records import Fenced as KataFenced

pytestmark = pytest.mark.reference

LEASE, ATTEMPTS, BASE, CAP = 50, 3, 10, 40
index = st.integers(0, 7)
calls = st.one_of(
    st.tuples(st.just("claim"), st.integers(1, 3)),
    st.tuples(st.just("tick"), st.sampled_from([1, 10, 49, 50, 51, 200])),
    st.tuples(st.just("renew"), index),
    st.tuples(st.just("complete"), index, index),
    st.tuples(st.just("fail"), index, index),
    st.tuples(st.just("release"), index),
    st.tuples(st.just("expire")),
)


class Both:
    """One call, made on the oracle and on the store; their refusals compared."""

    def __init__(self, store: Store, clock: Clock) -> None:
        self.store, self.clock = store, clock
        self.kata = Queue(
            lease_ticks=LEASE, max_attempts=ATTEMPTS, base=BASE, cap=CAP, rng=Random(5)
        )
        self.rng = Random(5)  # the store draws from its twin
        self.leases: list[tuple[Any, Lease]] = []  # (the oracle's lease, the store's)
        self.passed = clock.now  # the oracle's latest now: a refused call's has not passed

    def submit(self, count: int) -> None:
        """The script's batch: `count` requests, ready now."""
        requests = [Submitted(f"r{n}", {}, 1) for n in range(count)]
        self.store.submit("b", requests)
        for request in requests:
            self.kata.submit(request.custom_id, now=self.clock.now)
        self.compare()

    def call(self, name: str, *args: int) -> None:
        now = self.clock.now
        if name == "tick":
            self.clock.now += args[0]
            return
        if name == "claim":
            self._claim(args[0], now)
        elif name == "expire":
            expected = set(self.kata.expire(now=now))
            returned = self.store.expire(rng=self.rng)
            assert {self._custom_id(r) for r in returned} == expected
        elif self.leases and self._on_lease(name, args, now):
            return
        self.passed = now
        self.compare()

    def _claim(self, limit: int, now: int) -> None:
        expected, got = (
            self.kata.claim("w", now=now, limit=limit),
            self.store.claim("w", limit=limit, rng=self.rng),
        )
        assert (expected is None) == (got is None), f"claim: oracle {expected}, store {got}"
        if expected is not None and got is not None:
            assert [r.custom_id for r in got.requests] == list(expected.items)
            self.leases.append((expected, got))

    def _on_lease(self, name: str, args: tuple[int, ...], now: int) -> bool:
        """Whether both refused the call."""
        kata_lease, lease = self.leases[args[0] % len(self.leases)]
        item = lease.requests[args[1] % len(lease.requests)] if len(args) > 1 else lease.requests[0]
        kata_calls = {
            "renew": lambda: self.kata.renew(kata_lease.id, now=now),
            "release": lambda: self.kata.release(kata_lease.id, now=now),
            "complete": lambda: self.kata.complete(kata_lease.id, item.custom_id, "out", now=now),
            "fail": lambda: self.kata.fail(kata_lease.id, item.custom_id, "boom", now=now),
        }
        store_calls = {
            "renew": lambda: self.store.renew(lease.id),
            "release": lambda: self.store.release(lease.id),
            "complete": lambda: self.store.finish(lease.id, [(item.id, "out")], rng=self.rng),
            "fail": lambda: self.store.finish(
                lease.id, [(item.id, Failed("boom", False))], rng=self.rng
            ),
        }
        refused = _fenced(kata_calls[name])
        assert _fenced(store_calls[name]) == refused, f"{name} {args}: oracle refused: {refused}"
        return refused

    def compare(self) -> None:
        now = self.passed
        rows = self.store.sql(
            "SELECT custom_id, state, ready_at, attempts, error FROM requests"
        ).fetchall()
        for custom_id, state, ready_at, attempts, error in rows:
            if state == "queued":
                state = "ready" if ready_at <= now else "waiting"
            expected = self.kata.item(custom_id)
            got = {"succeeded": "succeeded", "errored": "dead"}.get(state, state)
            assert (got, attempts, error) == (expected.status, expected.attempts, expected.error), (
                custom_id
            )

    def _custom_id(self, request_id: int) -> str:
        return str(
            self.store.sql("SELECT custom_id FROM requests WHERE id = ?", [request_id]).fetchone()[
                0
            ]
        )


def _fenced(call: Any) -> bool:
    try:
        call()
    except (Fenced, KataFenced):
        return True
    return False


@pytest.mark.parametrize("kind", STORES)
@settings(
    max_examples=80, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(st.integers(1, 12), st.lists(calls, max_size=30))
def test_the_store_answers_as_the_lease_exercises_reference(
    kind: str, postgres_or_none: str | None, size: int, script: list[tuple[Any, ...]]
) -> None:
    """A batch, then any sequence of calls: the same claims, refusals, expiries, states and
    backoffs."""
    clock = Clock()
    store = fresh_store(
        kind,
        postgres_or_none,
        clock,
        lease_ms=LEASE,
        max_attempts=ATTEMPTS,
        base_ms=BASE,
        cap_ms=CAP,
    )
    try:
        both = Both(store, clock)
        both.submit(size)
        for call in script:
            both.call(*call)
    finally:
        store.close()
