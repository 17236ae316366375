"""The two stores: SQLite (one file, WAL, the workers of one machine) and
PostgreSQL (for workers on many machines; claims with SKIP LOCKED).

The schema is one text with the two dialects' few differences filled in; the
partial indexes are what keep a claim and an expiry off a scan of the queue.
"""

from __future__ import annotations

import json
import os
import re
import sqlite3
import time
import urllib.parse
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import TYPE_CHECKING, Any

from solution.logfile import InputError
from variants.jobs.intake import Submitted
from variants.jobs.store import Cursor, Settings, Store, StoreError, Unavailable

if TYPE_CHECKING:
    import psycopg

# SQLite: how long a statement waits for another connection's write lock, then fails as
# Unavailable (the worker backs off and tries again; a command says so).  A transaction here
# holds it for milliseconds; a second is a writer stalled, not one at work.
SQLITE_BUSY_MS = 1_000
# How long opening a store waits for another connection creating it, or upgrading it, at once.
OPEN_MS = 60_000
# PostgreSQL, on every connection:
# - a row lock is held for the milliseconds of one transaction: waiting a second for one is
#   waiting for a stalled holder, so the statement fails (Unavailable) and is tried again;
LOCK_TIMEOUT_MS = 1_000
# - no statement here reads more than an index's few rows: ten seconds is a hang, not work;
STATEMENT_TIMEOUT_MS = 10_000
# - a worker paused inside a transaction (SIGSTOP, a debugger, a swap storm) loses its session
#   and so its locks after this: the others wait at most this long for what it held;
IDLE_IN_TRANSACTION_MS = 10_000
# - a server that does not answer a new connection within this is down for now.
CONNECT_TIMEOUT_MS = 5_000

# The tables; a store made before a column or a table was added is brought up to date
# (`MIGRATIONS`) before the indexes are made, in the same transaction.
TABLES = """
CREATE TABLE IF NOT EXISTS batches (
    id TEXT PRIMARY KEY, digest TEXT NOT NULL, size INTEGER NOT NULL,
    created_at BIGINT NOT NULL, expires_at BIGINT NOT NULL, canceled_at BIGINT,
    swept INTEGER NOT NULL DEFAULT 0);
CREATE TABLE IF NOT EXISTS requests (
    id {identity}, batch_id TEXT NOT NULL REFERENCES batches (id),
    custom_id TEXT NOT NULL, params TEXT NOT NULL, tokens INTEGER NOT NULL,
    state TEXT NOT NULL DEFAULT 'queued', ready_at BIGINT NOT NULL,
    attempts INTEGER NOT NULL DEFAULT 0, lease_id BIGINT, error TEXT, ended_at BIGINT,
    permanent INTEGER NOT NULL DEFAULT 0, UNIQUE (batch_id, custom_id));
CREATE TABLE IF NOT EXISTS leases (
    id {identity}, worker TEXT NOT NULL, claimed_at BIGINT NOT NULL,
    deadline BIGINT NOT NULL, state TEXT NOT NULL, batch_id TEXT);
CREATE TABLE IF NOT EXISTS results (
    request_id BIGINT PRIMARY KEY REFERENCES requests (id),
    lease_id BIGINT NOT NULL, output TEXT NOT NULL, written_at BIGINT NOT NULL);
CREATE TABLE IF NOT EXISTS tallies (
    name TEXT NOT NULL, worker TEXT NOT NULL, value BIGINT NOT NULL,
    PRIMARY KEY (name, worker));
CREATE TABLE IF NOT EXISTS workers (
    name TEXT PRIMARY KEY, started_at BIGINT NOT NULL, seen_at BIGINT NOT NULL,
    alive_ms BIGINT NOT NULL DEFAULT 0, busy_ms BIGINT NOT NULL DEFAULT 0,
    done BIGINT NOT NULL DEFAULT 0)
"""
# The last index is made last: a store that has it has all of the schema.
INDEXES = """
CREATE INDEX IF NOT EXISTS batches_open ON batches (expires_at) WHERE swept = 0;
CREATE INDEX IF NOT EXISTS requests_ready ON requests (ready_at, id) WHERE state = 'queued';
CREATE INDEX IF NOT EXISTS requests_leased ON requests (lease_id) WHERE state = 'leased';
CREATE INDEX IF NOT EXISTS leases_live ON leases (deadline, id) WHERE state = 'live';
CREATE INDEX IF NOT EXISTS requests_batch_ready ON requests (batch_id, ready_at, id)
    WHERE state = 'queued';
CREATE INDEX IF NOT EXISTS leases_batch ON leases (batch_id, id);
CREATE INDEX IF NOT EXISTS batches_created ON batches (created_at, id)
"""
LAST_INDEX = "batches_created"
# The columns added since a store was first made, each (table, definition), added at the first
# open by a writer: before the turns between batches, leases.batch_id (its leases count as no
# batch's, so every batch's first turn comes first); before redrive, requests.permanent (its
# dead letters count as not permanent: a redrive sends them back, and a request too long for
# the token budget fails again at its first attempt, refused before the model runs).
ADDED_COLUMNS = (
    ("leases", "batch_id TEXT"),
    ("requests", "permanent INTEGER NOT NULL DEFAULT 0"),
)
# A store made before a counter's row per worker: its counters become the rows of no worker.
MOVE_COUNTERS = (
    # WHERE true: SQLite's parser reads an upsert's SELECT only with a WHERE before ON CONFLICT.
    "INSERT INTO tallies (name, worker, value) SELECT name, '', value FROM counters WHERE true"
    " ON CONFLICT (name, worker) DO UPDATE SET value = tallies.value + excluded.value",
    "DROP TABLE counters",
)


def _statements(script: str) -> list[str]:
    return [statement for statement in script.split(";") if statement.strip()]


INSERT = (
    "INSERT INTO requests (batch_id, custom_id, params, tokens, ready_at) VALUES (?, ?, ?, ?, ?)"
)


def _rows(batch_id: str, requests: list[Submitted], now: int) -> list[tuple[Any, ...]]:
    return [(batch_id, r.custom_id, json.dumps(r.params), r.tokens, now) for r in requests]


class SqliteStore(Store):
    """One file in WAL mode: readers never wait, one writer at a time (BEGIN IMMEDIATE), and a
    writer waits for another at most `SQLITE_BUSY_MS` (then Unavailable)."""

    def __init__(
        self,
        path: str | Path,
        settings: Settings | None = None,
        *,
        clock: Callable[[], int] | None = None,
    ) -> None:
        super().__init__(settings or Settings(), clock)
        self.path = str(path)
        # SQLite answers "database is locked" at once, without waiting out the timeout, where
        # waiting could deadlock: two connections creating the store at the same moment.
        # Opening is tried again until OPEN_MS; a busy store is not "not a job store".
        if _unwritable(self.path):
            self._db = self._opened_read_only()
            return
        deadline = time.monotonic() + OPEN_MS / 1000
        while True:
            try:
                self._db = self._opened()
                return
            except sqlite3.OperationalError as error:
                if "locked" not in str(error) or time.monotonic() > deadline:
                    raise InputError(f"{self.path}: not a job store ({error})") from None
                time.sleep(0.01)
            except sqlite3.DatabaseError as error:
                if _cannot_write(error):
                    raise StoreError(f"{self.path}: {error}; nothing was written") from None
                raise InputError(f"{self.path}: not a job store ({error})") from None

    def _opened(self) -> sqlite3.Connection:
        # Opened by one thread and used by another (the renewal thread's), never by two at once.
        db = sqlite3.connect(
            self.path,
            isolation_level=None,
            timeout=SQLITE_BUSY_MS / 1000,
            check_same_thread=False,
        )
        try:
            db.execute("PRAGMA journal_mode = WAL")
            # NORMAL: a committed transaction survives the process being killed (the WAL is
            # written at commit); only a power cut may lose the last few.
            db.execute("PRAGMA synchronous = NORMAL")
            if not _sqlite_has(db, LAST_INDEX):  # a store up to date is only read: no lock
                _sqlite_schema(db)
        except BaseException:
            db.close()
            raise
        return db

    def _opened_read_only(self) -> sqlite3.Connection:
        """A store on a read-only disk, or a file not ours to write, can still be read:
        status and results answer, and a write is refused in one line (StoreError)."""
        self.read_only = True
        uri = "file:" + urllib.parse.quote(str(Path(self.path).resolve()))
        # mode=ro still needs the WAL's shared memory file, which a read-only folder may
        # not hold; immutable reads the file alone (whose WAL its last writer checkpointed).
        for query in ("?mode=ro", "?immutable=1"):
            db = sqlite3.connect(uri + query, uri=True, isolation_level=None)
            try:
                db.execute("SELECT count(*) FROM batches, requests WHERE 0")
                if not _sqlite_has(db, "tallies"):  # made before it, and not ours to upgrade
                    self.tallies = "counters"
                return db
            except sqlite3.DatabaseError as error:
                db.close()
                failed = error
        raise InputError(f"{self.path}: not a job store ({failed}, read-only)") from None

    def sql(self, statement: str, params: Sequence[Any] = ()) -> Cursor:
        with self._translated():
            return self._db.execute(statement, params)

    @contextmanager
    def transaction(self, *, wait_ms: int | None = None) -> Iterator[None]:
        if self._db.in_transaction:  # nested: the outer one commits
            yield
            return
        with self._translated(), self._waiting(wait_ms):
            self._db.execute("BEGIN IMMEDIATE")
            try:
                yield
                self._db.execute("COMMIT")
            except BaseException:
                with suppress(sqlite3.OperationalError):  # a COMMIT that failed may have ended it
                    self._db.execute("ROLLBACK")
                raise

    @contextmanager
    def _waiting(self, wait_ms: int | None) -> Iterator[None]:
        """The busy timeout `wait_ms` for one transaction, SQLITE_BUSY_MS again after it."""
        if wait_ms is None:
            yield
            return
        self._db.execute(f"PRAGMA busy_timeout = {int(wait_ms)}")
        try:
            yield
        finally:
            self._db.execute(f"PRAGMA busy_timeout = {SQLITE_BUSY_MS}")

    @contextmanager
    def _translated(self) -> Iterator[None]:
        """SQLite's errors in the store's words: busy is Unavailable, a full or read-only disk
        a StoreError; anything else is a fault, raised as it is."""
        try:
            yield
        except sqlite3.OperationalError as error:
            name = getattr(error, "sqlite_errorname", "")
            if name.startswith(("SQLITE_BUSY", "SQLITE_LOCKED")):
                raise Unavailable(str(error)) from None
            if _cannot_write(error):
                raise StoreError(f"{self.path}: {error}; nothing was written") from None
            raise

    def server_now(self) -> int:
        return time.time_ns() // 1_000_000  # one machine, one clock

    def reconnect(self) -> None:
        pass  # a file: busy is not lost, and the connection is still good

    def close(self) -> None:
        self._db.close()

    def _insert(self, batch_id: str, requests: list[Submitted], now: int) -> None:
        with self._translated():
            self._db.executemany(INSERT, _rows(batch_id, requests, now))


def _sqlite_has(db: sqlite3.Connection, name: str) -> bool:
    found = db.execute("SELECT 1 FROM sqlite_master WHERE name = ?", [name]).fetchone()
    return found is not None


def _sqlite_schema(db: sqlite3.Connection) -> None:
    """Make the store, or bring one made by an earlier version up to date, in one transaction."""
    db.execute("BEGIN IMMEDIATE")
    try:
        for statement in _statements(TABLES.format(identity="INTEGER PRIMARY KEY")):
            db.execute(statement)
        for table, column in ADDED_COLUMNS:
            columns = {row[1] for row in db.execute(f"PRAGMA table_info({table})")}
            if column.split()[0] not in columns:
                db.execute(f"ALTER TABLE {table} ADD COLUMN {column}")
        if _sqlite_has(db, "counters"):
            for statement in MOVE_COUNTERS:
                db.execute(statement)
        for statement in _statements(INDEXES):
            db.execute(statement)
        db.execute("COMMIT")
    except BaseException:
        with suppress(sqlite3.OperationalError):
            db.execute("ROLLBACK")
        raise


class PostgresStore(Store):
    """PostgreSQL: claims skip the rows other claims hold; the clock is the server's; every
    wait is bounded (LOCK_TIMEOUT_MS, STATEMENT_TIMEOUT_MS, IDLE_IN_TRANSACTION_MS); a lost
    connection is Unavailable, and `reconnect` opens another."""

    claim_lock = "FOR UPDATE SKIP LOCKED"
    row_lock = "FOR UPDATE"
    share_lock = "FOR SHARE"

    def __init__(
        self,
        dsn: str,
        settings: Settings | None = None,
        *,
        clock: Callable[[], int] | None = None,
        application_name: str = "jobs",
    ) -> None:
        super().__init__(settings or Settings(), clock)
        self.dsn = dsn
        self.application_name = application_name  # pg_stat_activity's name for this connection
        try:
            self._db = self._connect()
        except Unavailable as error:
            raise InputError(f"{redacted(dsn)}: cannot connect ({error.reason})") from None
        import psycopg  # the optional extra: only a PostgreSQL store needs it

        try:
            if not self._has(LAST_INDEX):  # a store up to date takes no lock to open
                self._make_schema()
        except (psycopg.Error, Unavailable) as error:  # no schema to create in, no right to
            self._db.close()
            reason = error.reason if isinstance(error, Unavailable) else _first_line(error)
            raise InputError(f"{redacted(dsn)}: not a job store ({reason})") from None

    def _connect(self) -> psycopg.Connection[tuple[Any, ...]]:
        import psycopg

        try:
            db = psycopg.connect(
                self.dsn,
                autocommit=True,
                application_name=self.application_name,
                connect_timeout=max(2, CONNECT_TIMEOUT_MS // 1000),  # libpq's: seconds, 2 at least
            )
        except psycopg.Error as error:
            raise Unavailable(_first_line(error)) from None
        try:
            db.execute(
                "SELECT set_config('lock_timeout', %s, false),"
                " set_config('statement_timeout', %s, false),"
                " set_config('idle_in_transaction_session_timeout', %s, false)",
                [str(LOCK_TIMEOUT_MS), str(STATEMENT_TIMEOUT_MS), str(IDLE_IN_TRANSACTION_MS)],
            )
        except psycopg.Error as error:
            db.close()
            raise Unavailable(_first_line(error)) from None
        return db

    def _has(self, name: str) -> bool:
        found = self._db.execute("SELECT to_regclass(%s)", [name]).fetchone()
        return found is not None and found[0] is not None

    def _made_meanwhile(self) -> bool:
        """Whether another connection made the schema while this one waited for the lock.
        Then its tables may be in use already, and the DDL's locks (an ALTER TABLE's is
        exclusive, even for a column there) would queue behind that use and ahead of it: a
        submit beside us deadlocked.  Read from pg_class by this statement's snapshot:
        `to_regclass` answers from the session's cache of names, which an advisory lock
        does not refresh, and still said "no such index"."""
        found = self._db.execute(
            "SELECT 1 FROM pg_class WHERE relname = %s"
            " AND relnamespace = current_schema()::regnamespace",
            [LAST_INDEX],
        ).fetchone()
        return found is not None

    def _make_schema(self) -> None:
        """Make the store, or bring one made by an earlier version up to date, in one
        transaction; the only one without a bound: an index made on a large queue takes time."""
        with self._db.transaction():
            self._db.execute("SET LOCAL lock_timeout = 0")
            self._db.execute("SET LOCAL statement_timeout = 0")
            # Two workers starting at once would race to create the tables.
            self._db.execute("SELECT pg_advisory_xact_lock(7101)")
            if self._made_meanwhile():
                return
            identity = "BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY"
            for statement in _statements(TABLES.format(identity=identity)):
                self._db.execute(statement)
            for table, column in ADDED_COLUMNS:
                self._db.execute(f"ALTER TABLE {table} ADD COLUMN IF NOT EXISTS {column}")
            if self._has("counters"):
                for statement in MOVE_COUNTERS:
                    self._db.execute(statement)
            for statement in _statements(INDEXES):
                self._db.execute(statement)

    def sql(self, statement: str, params: Sequence[Any] = ()) -> Cursor:
        query = statement.replace("?", "%s")
        with self._translated():
            return self._db.execute(query, params)

    @contextmanager
    def transaction(self, *, wait_ms: int | None = None) -> Iterator[None]:
        with self._translated(), self._db.transaction():
            if wait_ms is not None:
                self._db.execute(f"SET LOCAL lock_timeout = {int(wait_ms)}")
            yield

    @contextmanager
    def _translated(self) -> Iterator[None]:
        """psycopg's errors in the store's words: an operational error (a lost connection, a
        lock or a statement past its bound, a deadlock) or any error that lost the
        connection is Unavailable; anything else is a fault, raised as it is."""
        import psycopg

        try:
            yield
        except psycopg.Error as error:
            if isinstance(error, psycopg.OperationalError) or self._db.closed:
                raise Unavailable(_first_line(error)) from None
            raise

    def server_now(self) -> int:
        row = self.sql("SELECT (extract(epoch FROM clock_timestamp()) * 1000)::bigint")
        return int(row.fetchone()[0])

    def reconnect(self) -> None:
        if not self._db.closed:
            return
        self._db = self._connect()

    def close(self) -> None:
        self._db.close()

    def _insert(self, batch_id: str, requests: list[Submitted], now: int) -> None:
        with self._translated(), self._db.cursor() as cursor:
            cursor.executemany(INSERT.replace("?", "%s"), _rows(batch_id, requests, now))


def _unwritable(path: str) -> bool:
    """A file there that this process may not write, or in a folder it may not write."""
    where = Path(path)
    if path == ":memory:" or not where.is_file():
        return False
    return not (os.access(where, os.W_OK) and os.access(where.parent, os.W_OK))


def _cannot_write(error: sqlite3.DatabaseError) -> bool:
    """SQLite's words for a disk that is full or will not be written."""
    return getattr(error, "sqlite_errorname", "") in ("SQLITE_FULL", "SQLITE_READONLY")


def redacted(dsn: str) -> str:
    """The address without its password, for a message."""
    return re.sub(r"(://[^:@/]*):[^@/]*@", r"\1:***@", dsn)


def _first_line(error: Exception) -> str:
    text = str(error).strip()
    return text.splitlines()[0] if text else type(error).__name__


def open_store(
    url: str,
    settings: Settings | None = None,
    *,
    clock: Callable[[], int] | None = None,
    create: bool = True,
    application_name: str = "jobs",
) -> Store:
    """``sqlite:PATH`` or ``postgresql://...``; InputError for anything else, and, unless
    `create`, for a SQLite file that does not exist (a typo must not make a new store).
    `application_name` names a PostgreSQL connection in pg_stat_activity."""
    if url.startswith(("postgresql://", "postgres://")):
        try:
            import psycopg  # noqa: F401  (only to say what is missing)
        except ImportError:
            raise InputError(
                f"{url}: PostgreSQL needs the postgres extra (pip install '.[postgres]')"
            ) from None
        return PostgresStore(url, settings, clock=clock, application_name=application_name)
    path = url.removeprefix("sqlite:")
    if not url.startswith("sqlite:") or path.startswith("//") or "://" in path or not path:
        raise InputError(f"{url}: a store is sqlite:PATH or postgresql://...")
    if Path(path).is_dir():
        raise InputError(f"{path}: a directory, not a job store")
    if not create and path != ":memory:" and not Path(path).exists():
        raise InputError(f"{path}: no such job store")
    return SqliteStore(path, settings, clock=clock)
