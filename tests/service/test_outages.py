"""Outages, in one process, on both stores: a worker's renewals failing for a moment or
past its lease, its renewal thread failing, its write's answer lost after the commit; and
the stores' bounded waits: a lock not had in time is Unavailable, a lost connection is
reconnected, a reader answers while a writer stalls, a cancel waits for a failed attempt."""

from __future__ import annotations

import sqlite3
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from random import Random
from typing import Any

import psycopg
import pytest

from tests.service.conftest import Clock
from tests.service.test_store import MakeStore, batch, states
from variants.jobs.backends import (
    IDLE_IN_TRANSACTION_MS,
    LOCK_TIMEOUT_MS,
    SQLITE_BUSY_MS,
    STATEMENT_TIMEOUT_MS,
    open_store,
)
from variants.jobs.model import Failed, Model
from variants.jobs.store import Fenced, Settings, Store, Unavailable
from variants.jobs.worker import WorkerConfig, work

pytestmark = pytest.mark.reference
READER_MS = 2_000  # status and results answer within this, whatever a stalled writer holds


def run_worker(
    url: str,
    settings: Settings,
    *,
    renewals: Callable[[Store], None] = lambda store: None,
    writes: Callable[[Store], None] = lambda store: None,
    time_scale: float = 4.0,
) -> None:
    """One worker, until nothing is left: 4 requests a batch of some 80 ms, 16 a lease;
    `renewals` and `writes` rig its heart's connection and its own."""

    def opened(role: str) -> Store:
        store = open_store(url, settings, create=False, application_name=f"jobs-{role}-w")
        (renewals if role == "renew" else writes)(store)
        return store

    config = WorkerConfig("w", limit=16, max_batch_size=4, poll_ms=10, until_idle=True)
    config = WorkerConfig(**{**config.__dict__, "time_scale": time_scale})
    work(opened, Model(), config, threading.Event())


def outcomes(url: str) -> dict[str, tuple[str, int]]:
    with open_store(url, Settings(), create=False) as store:
        return {
            line["custom_id"]: (line["result"]["type"], line["attempts"])
            for line in store.results("b")
        }


def test_renewals_failing_for_a_moment_hold_the_worker_back_and_lose_nothing(
    store_url: str, monkeypatch: pytest.MonkeyPatch, capfd: pytest.CaptureFixture[str]
) -> None:
    """A renewal cannot reach the store; the next, a backoff later, does, well inside the
    lease: the worker waited for it (its next write, if it came first), then went on."""
    settings = Settings(lease_ms=900, base_ms=10, cap_ms=50)
    with open_store(store_url, settings) as store:
        store.submit("b", batch(32))
    refused: list[int] = []

    def renewals(store: Store) -> None:
        renew = store.renew

        def failing(lease_id: int) -> None:
            if not refused:
                refused.append(lease_id)
                raise Unavailable("failpoint: connection lost")
            renew(lease_id)

        monkeypatch.setattr(store, "renew", failing)

    run_worker(store_url, settings, renewals=renewals)
    said = capfd.readouterr().err
    assert "worker w (renewal): store unavailable (failpoint: connection lost)" in said
    assert "worker w (renewal): store back after" in said
    assert "abandoned" not in said
    assert outcomes(store_url) == {f"r{n}": ("succeeded", 1) for n in range(32)}


def test_renewals_failing_past_the_lease_abandon_it_and_write_nothing_more(
    store_url: str, monkeypatch: pytest.MonkeyPatch, capfd: pytest.CaptureFixture[str]
) -> None:
    """Every renewal of the first lease fails: past its 300 ms by the worker's own clock,
    the worker abandons it, writes nothing more for it, and says so once; its requests
    come back by the store's clock and are run again."""
    settings = Settings(lease_ms=300, base_ms=10, cap_ms=50)
    with open_store(store_url, settings) as store:
        store.submit("b", batch(16))
    first: list[int] = []

    def renewals(store: Store) -> None:
        renew = store.renew

        def failing(lease_id: int) -> None:
            first[:] = first or [lease_id]
            if lease_id == first[0]:
                raise Unavailable("failpoint: connection lost")
            renew(lease_id)

        monkeypatch.setattr(store, "renew", failing)

    run_worker(store_url, settings, renewals=renewals)
    said = capfd.readouterr().err
    assert said.count(f"worker w: lease {first[0]} not renewed for its 300 ms; abandoned") == 1
    done = outcomes(store_url)
    assert {outcome for outcome, _ in done.values()} == {"succeeded"}
    assert 2 in {attempts for _, attempts in done.values()}, "nothing was abandoned"
    with open_store(store_url, settings) as store:
        deadline, written, late = store.sql(
            "SELECT l.deadline, count(o.request_id), coalesce(max(o.written_at), 0) FROM leases l"
            " LEFT JOIN results o ON o.lease_id = l.id WHERE l.id = ? GROUP BY l.deadline",
            [first[0]],
        ).fetchone()
        assert written < 16, "the abandoned lease wrote all it held"
        assert late <= deadline, "a result written for the lease after it lapsed"
        assert store.counters()["leases_expired"] >= 1


@pytest.mark.filterwarnings("ignore::pytest.PytestUnhandledThreadExceptionWarning")
def test_a_renewal_thread_that_fails_stops_the_worker_loudly(
    store_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Not a lost connection but a fault: the thread ends, and the worker with it."""
    settings = Settings(lease_ms=300)
    with open_store(store_url, settings) as store:
        store.submit("b", batch(16))

    def renewals(store: Store) -> None:
        def broken(lease_id: int) -> None:
            raise ValueError("a bug in the renewal")

        monkeypatch.setattr(store, "renew", broken)

    with pytest.raises(RuntimeError, match="the renewal thread failed") as failed:
        run_worker(store_url, settings, renewals=renewals)
    assert isinstance(failed.value.__cause__, ValueError)


def test_a_write_whose_answer_was_lost_is_tried_again_and_written_once(
    store_url: str, monkeypatch: pytest.MonkeyPatch, capfd: pytest.CaptureFixture[str]
) -> None:
    """The first write commits, then its connection is lost before the answer: tried again,
    it is refused (fenced), the lease still live says it landed, and the worker goes on."""
    settings = Settings(lease_ms=30_000)
    with open_store(store_url, settings) as store:
        store.submit("b", batch(16))
    lost: list[int] = []

    def writes(store: Store) -> None:
        finish = store.finish

        def answer_lost(lease_id: int, outcomes: Any, **options: Any) -> None:
            finish(lease_id, outcomes, **options)
            if not lost:
                lost.append(lease_id)
                raise Unavailable("failpoint: the answer was lost")

        monkeypatch.setattr(store, "finish", answer_lost)

    run_worker(store_url, settings, writes=writes, time_scale=0)
    said = capfd.readouterr().err
    assert "worker w: store unavailable (failpoint: the answer was lost); reconnecting" in said
    assert outcomes(store_url) == {f"r{n}": ("succeeded", 1) for n in range(16)}
    with open_store(store_url, settings) as store:
        assert store.sql("SELECT count(*) FROM results").fetchone()[0] == 16
        assert store.counters()["leases_expired"] == 0


@contextmanager
def stalled_writer(store_url: str, batch_id: str) -> Iterator[None]:
    """Another connection inside a write, holding what a stalled worker's would: SQLite's
    write lock; on PostgreSQL the batch's row, shared, as a failed attempt's write holds it."""
    if store_url.startswith("sqlite:"):
        db = sqlite3.connect(store_url.removeprefix("sqlite:"), isolation_level=None)
        db.execute("BEGIN IMMEDIATE")
        try:
            yield
        finally:
            db.execute("ROLLBACK")
            db.close()
        return
    with psycopg.connect(store_url, autocommit=True) as pg, pg.transaction():
        pg.execute("SELECT 1 FROM batches WHERE id = %s FOR SHARE", [batch_id])
        pg.execute("SELECT 1 FROM leases FOR UPDATE")
        yield


def test_a_reader_answers_while_a_writer_stalls(
    store_url: str, make_store: MakeStore, clock: Clock
) -> None:
    """The batch's window has closed, but what applying it needs is held: status and
    results answer at once with the batch as it stands; the next writer applies it."""
    store = make_store(window_ms=1_000)
    store.submit("b", batch(2))
    clock.now += 1_001
    with stalled_writer(store_url, "b"):
        started = time.monotonic()
        counts = store.status("b").counts
        ended = list(store.results("b"))
        answered_ms = (time.monotonic() - started) * 1000
    assert answered_ms < READER_MS
    assert (counts["processing"], ended) == (2, [])
    assert store.status("b").counts["expired"] == 2


def test_a_write_that_cannot_have_its_lock_in_time_is_unavailable(
    store_url: str, make_store: MakeStore
) -> None:
    """Waited for its stated bound, then refused in the store's words, nothing written."""
    store = make_store()
    store.submit("b", batch(1))
    lease = store.claim("w", limit=1, rng=Random(0))
    assert lease is not None
    bound_ms = SQLITE_BUSY_MS if store_url.startswith("sqlite:") else LOCK_TIMEOUT_MS
    with stalled_writer(store_url, "b"):
        started = time.monotonic()
        with pytest.raises(Unavailable):
            store.renew(lease.id)
        waited_ms = (time.monotonic() - started) * 1000
    assert bound_ms * 0.9 <= waited_ms < bound_ms + 1_000
    store.renew(lease.id)  # the lock let go: as before


def bounds(store: Store) -> dict[str, int]:
    rows = store.sql(
        "SELECT name, setting::bigint FROM pg_settings WHERE name IN"
        " ('lock_timeout', 'statement_timeout', 'idle_in_transaction_session_timeout')"
    ).fetchall()
    return dict(rows)


def test_a_lost_postgresql_connection_is_unavailable_then_reconnected(store_url: str) -> None:
    """Each connection carries the bounds; cut, it is Unavailable; reconnected, it works, and
    carries them again."""
    if store_url.startswith("sqlite:"):
        pytest.skip("SQLite: a file, no connection to lose")
    expected = {
        "lock_timeout": LOCK_TIMEOUT_MS,
        "statement_timeout": STATEMENT_TIMEOUT_MS,
        "idle_in_transaction_session_timeout": IDLE_IN_TRANSACTION_MS,
    }
    with open_store(store_url, Settings(), application_name="jobs-test-lost") as store:
        assert bounds(store) == expected
        with psycopg.connect(store_url, autocommit=True) as monitor:
            monitor.execute(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                " WHERE application_name = 'jobs-test-lost'"
            )
        with pytest.raises(Unavailable, match="terminating connection"):
            store.ping()
        store.reconnect()
        assert bounds(store) == expected


def test_a_cancel_beside_a_failed_attempt_never_leaves_it_queued(make_store: MakeStore) -> None:
    """A worker's write fails an attempt of a batch while a client cancels the batch: the
    cancel waits for the write, and ends the request it put back in the queue (else each
    read the other's state as it was, and the request stayed queued, canceled batch or not)."""
    worker, client = make_store(), make_store()
    worker.submit("b", batch(2))
    lease = worker.claim("w", limit=1, rng=Random(0))
    assert lease is not None
    in_commit, go_on = threading.Event(), threading.Event()

    def pause(where: str) -> None:
        if where == "commit":
            in_commit.set()
            go_on.wait(5)

    worker.failpoint = pause
    failed = [(lease.requests[0].id, Failed("boom", False))]
    writing = threading.Thread(target=lambda: worker.finish(lease.id, failed, rng=Random(0)))
    writing.start()
    assert in_commit.wait(5)
    canceling = threading.Thread(target=lambda: client.cancel("b"))
    canceling.start()
    canceling.join(0.3)  # it waits for the write (or, wrongly, is done already)
    go_on.set()
    writing.join()
    canceling.join()
    assert states(client) == {"r0": "canceled", "r1": "canceled"}
    with pytest.raises(Fenced):
        worker.renew(lease.id)
