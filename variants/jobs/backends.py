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
from typing import Any

from solution.logfile import InputError
from variants.jobs.intake import Submitted
from variants.jobs.store import Cursor, Settings, Store, StoreError

OPEN_SECONDS = 60  # how long opening an SQLite store waits for other connections
SCHEMA = """
CREATE TABLE IF NOT EXISTS batches (
    id TEXT PRIMARY KEY, digest TEXT NOT NULL, size INTEGER NOT NULL,
    created_at BIGINT NOT NULL, expires_at BIGINT NOT NULL, canceled_at BIGINT,
    swept INTEGER NOT NULL DEFAULT 0);
CREATE INDEX IF NOT EXISTS batches_open ON batches (expires_at) WHERE swept = 0;
CREATE TABLE IF NOT EXISTS requests (
    id {identity}, batch_id TEXT NOT NULL REFERENCES batches (id),
    custom_id TEXT NOT NULL, params TEXT NOT NULL, tokens INTEGER NOT NULL,
    state TEXT NOT NULL DEFAULT 'queued', ready_at BIGINT NOT NULL,
    attempts INTEGER NOT NULL DEFAULT 0, lease_id BIGINT, error TEXT, ended_at BIGINT,
    UNIQUE (batch_id, custom_id));
CREATE INDEX IF NOT EXISTS requests_ready ON requests (ready_at, id) WHERE state = 'queued';
CREATE INDEX IF NOT EXISTS requests_leased ON requests (lease_id) WHERE state = 'leased';
CREATE TABLE IF NOT EXISTS leases (
    id {identity}, worker TEXT NOT NULL, claimed_at BIGINT NOT NULL,
    deadline BIGINT NOT NULL, state TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS leases_live ON leases (deadline, id) WHERE state = 'live';
CREATE TABLE IF NOT EXISTS results (
    request_id BIGINT PRIMARY KEY REFERENCES requests (id),
    lease_id BIGINT NOT NULL, output TEXT NOT NULL, written_at BIGINT NOT NULL);
CREATE TABLE IF NOT EXISTS counters (name TEXT PRIMARY KEY, value BIGINT NOT NULL);
CREATE TABLE IF NOT EXISTS workers (
    name TEXT PRIMARY KEY, started_at BIGINT NOT NULL, seen_at BIGINT NOT NULL,
    alive_ms BIGINT NOT NULL DEFAULT 0, busy_ms BIGINT NOT NULL DEFAULT 0,
    done BIGINT NOT NULL DEFAULT 0);
"""

INSERT = (
    "INSERT INTO requests (batch_id, custom_id, params, tokens, ready_at) VALUES (?, ?, ?, ?, ?)"
)


def _rows(batch_id: str, requests: list[Submitted], now: int) -> list[tuple[Any, ...]]:
    return [(batch_id, r.custom_id, json.dumps(r.params), r.tokens, now) for r in requests]


class SqliteStore(Store):
    """One file in WAL mode: readers never wait, one writer at a time (BEGIN IMMEDIATE)."""

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
        # Opening is tried again until the timeout; a busy store is not "not a job store".
        if _unwritable(self.path):
            self._db = self._opened_read_only()
            return
        deadline = time.monotonic() + OPEN_SECONDS
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
        db = sqlite3.connect(self.path, isolation_level=None, timeout=OPEN_SECONDS)
        try:
            db.execute("PRAGMA journal_mode = WAL")
            # NORMAL: a committed transaction survives the process being killed (the WAL is
            # written at commit); only a power cut may lose the last few.
            db.execute("PRAGMA synchronous = NORMAL")
            db.executescript(SCHEMA.format(identity="INTEGER PRIMARY KEY"))
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
                return db
            except sqlite3.DatabaseError as error:
                db.close()
                failed = error
        raise InputError(f"{self.path}: not a job store ({failed}, read-only)") from None

    def sql(self, statement: str, params: Sequence[Any] = ()) -> Cursor:
        return self._db.execute(statement, params)

    @contextmanager
    def transaction(self) -> Iterator[None]:
        if self._db.in_transaction:  # nested: the outer one commits
            yield
            return
        try:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                yield
                self._db.execute("COMMIT")
            except BaseException:
                with suppress(sqlite3.OperationalError):  # a COMMIT that failed may have ended it
                    self._db.execute("ROLLBACK")
                raise
        except sqlite3.OperationalError as error:
            if not _cannot_write(error):
                raise
            raise StoreError(f"{self.path}: {error}; nothing was written") from None

    def server_now(self) -> int:
        return time.time_ns() // 1_000_000  # one machine, one clock

    def close(self) -> None:
        self._db.close()

    def _insert(self, batch_id: str, requests: list[Submitted], now: int) -> None:
        self._db.executemany(INSERT, _rows(batch_id, requests, now))


class PostgresStore(Store):
    """PostgreSQL: claims skip the rows other claims hold; the clock is the server's."""

    claim_lock = "FOR UPDATE SKIP LOCKED"
    row_lock = "FOR UPDATE"

    def __init__(
        self, dsn: str, settings: Settings | None = None, *, clock: Callable[[], int] | None = None
    ) -> None:
        super().__init__(settings or Settings(), clock)
        import psycopg  # the optional extra: only a PostgreSQL store needs it

        self.dsn = dsn
        try:
            self._db = psycopg.connect(dsn, autocommit=True)
        except psycopg.Error as error:
            raise InputError(f"{redacted(dsn)}: cannot connect ({_first_line(error)})") from None
        try:
            with self._db.transaction():
                # Two workers starting at once would race to create the tables.
                self._db.execute("SELECT pg_advisory_xact_lock(7101)")
                identity = "BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY"
                for statement in SCHEMA.format(identity=identity).split(";"):
                    if statement.strip():
                        self._db.execute(statement)
        except psycopg.Error as error:  # no schema to create the tables in, no right to
            self._db.close()
            raise InputError(f"{redacted(dsn)}: not a job store ({_first_line(error)})") from None

    def sql(self, statement: str, params: Sequence[Any] = ()) -> Cursor:
        query = statement.replace("?", "%s")
        return self._db.execute(query, params)

    @contextmanager
    def transaction(self) -> Iterator[None]:
        with self._db.transaction():
            yield

    def server_now(self) -> int:
        row = self._db.execute("SELECT (extract(epoch FROM clock_timestamp()) * 1000)::bigint")
        return int(row.fetchone()[0])  # type: ignore[index]  # one row, always

    def close(self) -> None:
        self._db.close()

    def _insert(self, batch_id: str, requests: list[Submitted], now: int) -> None:
        with self._db.cursor() as cursor:
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
) -> Store:
    """``sqlite:PATH`` or ``postgresql://...``; InputError for anything else, and, unless
    `create`, for a SQLite file that does not exist (a typo must not make a new store)."""
    if url.startswith(("postgresql://", "postgres://")):
        try:
            import psycopg  # noqa: F401  (only to say what is missing)
        except ImportError:
            raise InputError(
                f"{url}: PostgreSQL needs the postgres extra (pip install '.[postgres]')"
            ) from None
        return PostgresStore(url, settings, clock=clock)
    path = url.removeprefix("sqlite:")
    if not url.startswith("sqlite:") or path.startswith("//") or "://" in path or not path:
        raise InputError(f"{url}: a store is sqlite:PATH or postgresql://...")
    if Path(path).is_dir():
        raise InputError(f"{path}: a directory, not a job store")
    if not create and path != ":memory:" and not Path(path).exists():
        raise InputError(f"{path}: no such job store")
    return SqliteStore(path, settings, clock=clock)
