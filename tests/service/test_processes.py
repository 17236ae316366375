"""Real worker processes on both stores: killed with SIGKILL at the worst moments,
and stopped with SIGTERM as a spot notice.  Nothing is mocked: processes, signals,
the database's own transactions."""

from __future__ import annotations

import collections
import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from kata.exercises import ROOT
from variants.jobs.backends import open_store
from variants.jobs.intake import Submitted
from variants.jobs.store import Settings, Store

pytestmark = pytest.mark.reference
BUDGET = 16_384  # the worker's default token budget


def workload(count: int) -> tuple[list[Submitted], set[str]]:
    """`count` requests, and the ids of those built to fail: poisoned, or too long."""
    requests: list[Submitted] = []
    doomed: set[str] = set()
    for number in range(count):
        custom_id, params, tokens = f"r{number:04d}", {}, 1 + number % 300
        if number % 50 == 7:
            params, doomed = {"poison": True}, doomed | {custom_id}
        if number % 100 == 33:
            tokens, doomed = BUDGET + 1, doomed | {custom_id}
        requests.append(Submitted(custom_id, params, tokens))
    return requests, doomed


class Workers:
    """Worker processes of `python -m variants jobs worker`, as a user starts them."""

    def __init__(self, url: str, folder: Path, *flags: str) -> None:
        self.url, self.folder, self.flags = url, folder, flags
        self.log = folder / "runs.jsonl"
        self.running: dict[str, subprocess.Popen[bytes]] = {}
        self.started: list[str] = []  # every name, running or not

    def start(self, name: str, *extra: str) -> subprocess.Popen[bytes]:
        command = [sys.executable, "-m", "variants", "jobs", "worker", "--store", self.url]
        command += ["--name", name, "--run-log", str(self.log), *self.flags, *extra]
        with open(self.folder / f"{name}.err", "wb") as errors:
            process = subprocess.Popen(command, cwd=ROOT, stderr=errors)
        self.running[name] = process
        self.started.append(name)
        return process

    def next_exit(self, seconds: float = 120) -> tuple[str, int]:
        """Block until a worker exits (no polling): its name and exit status."""
        deadline = time.monotonic() + seconds
        while True:
            for name, process in self.running.items():
                if process.poll() is not None:
                    del self.running[name]
                    return name, process.returncode
            if time.monotonic() > deadline:
                raise AssertionError(f"no worker ended within {seconds} s")
            os.waitid(os.P_ALL, 0, os.WEXITED | os.WNOWAIT)  # waits; reaps nothing

    def errors(self, name: str) -> str:
        return (self.folder / f"{name}.err").read_text()

    def runs(self) -> collections.Counter[str]:
        lines = self.log.read_text().splitlines() if self.log.exists() else []
        return collections.Counter(json.loads(line)["custom_id"] for line in lines)

    def stop_all(self) -> None:
        for process in self.running.values():
            process.kill()
            process.wait()


def rows(store: Store, query: str) -> list[tuple[object, ...]]:
    return [tuple(row) for row in store.sql(query).fetchall()]


def ended_once(store: Store, batch_id: str, count: int, doomed: set[str], attempts: int) -> None:
    """Every request of the batch has one outcome, and only the doomed are dead; the
    results table holds one row a success, each written by the lease that held its
    request; no attempt count passes the limit."""
    counts = store.status(batch_id).counts
    ended = {"succeeded": count - len(doomed), "errored": len(doomed), "canceled": 0, "expired": 0}
    assert counts == {"processing": 0} | ended
    dead = {
        line["custom_id"] for line in store.results(batch_id) if line["result"]["type"] == "errored"
    }
    assert dead == doomed, "the dead-letter queue holds exactly the requests built to fail"
    written = store.sql(
        "SELECT count(*) FROM results o JOIN requests r ON r.id = o.request_id"
        " WHERE r.batch_id = ?",
        [batch_id],
    ).fetchone()[0]
    assert written == count - len(doomed)
    assert not rows(
        store,
        "SELECT r.id FROM requests r JOIN results o ON o.request_id = r.id"
        " WHERE r.state <> 'succeeded' OR o.lease_id <> r.lease_id",
    ), "a result written by a lease that did not hold its request"
    assert store.sql("SELECT max(attempts) FROM requests").fetchone()[0] <= attempts


@pytest.fixture
def workers(store_url: str, tmp_path: Path) -> Iterator[Callable[..., Workers]]:
    made: list[Workers] = []

    def make(*flags: str) -> Workers:
        made.append(Workers(store_url, tmp_path, *flags))
        return made[-1]

    yield make
    for group in made:
        group.stop_all()


def test_workers_killed_anywhere_lose_nothing_and_write_nothing_twice(
    store_url: str, workers: Callable[..., Workers]
) -> None:
    """SIGKILL inside a claim, between the model and the write, and inside the commit;
    restarted.  At the end every request has one outcome and only the doomed are dead."""
    attempts = 8  # a request that is merely unlucky never runs out of them (0.15 ** 8)
    settings = Settings(lease_ms=300, max_attempts=attempts, base_ms=10, cap_ms=50)
    requests, doomed = workload(300)
    with open_store(store_url, settings) as store:
        store.submit("crash", requests)
    flags = ["--lease-ms", "300", "--max-attempts", str(attempts), "--base-ms", "10"]
    flags += ["--cap-ms", "50", "--poll-ms", "20", "--until-idle", "--time-scale", "0"]
    flags += ["--limit", "16", "--batch-size", "8"]
    crashes = ["--crash-at", "claim=0.03", "--crash-at", "write=0.03", "--crash-at", "commit=0.03"]
    group = workers(*flags, *crashes)
    for n in range(3):
        group.start(f"w{n}")
    killed = 0
    while group.running:
        name, status = group.next_exit()
        if status == -signal.SIGKILL:
            killed += 1
            group.start(f"{name}.{killed}")
        else:
            assert status == 0, group.errors(name)
    with open_store(store_url, settings) as store:
        ended_once(store, "crash", 300, doomed, attempts)
        assert killed > 0, "no worker was killed: the test proved nothing"
        assert store.counters()["leases_expired"] > 0


def test_sigterm_stops_a_worker_with_nothing_lost_and_nothing_redone(
    store_url: str, workers: Callable[..., Workers]
) -> None:
    """A spot notice: the batch in hand is finished, the rest released, the exit prompt."""
    settings = Settings(lease_ms=30_000)  # nothing expires: a lost release would show
    requests = [Submitted(f"r{n:03d}", {}, 50) for n in range(160)]
    with open_store(store_url, settings) as store:
        store.submit("spot", requests)
        # One lease holds every request: a worker that ran its whole lease out after the
        # notice, instead of releasing it, would run them all.
        flags = ["--time-scale", "3", "--limit", "160", "--batch-size", "8", "--poll-ms", "20"]
        group = workers(*flags)
        first = group.start("first")
        deadline = time.monotonic() + 60
        while (done := store.status("spot").counts["succeeded"]) < 16:  # work in hand
            assert time.monotonic() < deadline, group.errors("first")
            os.sched_yield()
        first.send_signal(signal.SIGTERM)
        sent = time.monotonic()
        assert group.next_exit() == ("first", 0), group.errors("first")
        assert time.monotonic() - sent < 2.0, "the worker overran its grace"
        ran = sum(group.runs().values())
        assert ran <= done + 2 * 8, f"{ran} run after {done} done: more than the batch in hand"
        left = store.status("spot").counts
        assert left["processing"] > 0, "nothing was left to release: the test proved nothing"
        group.start("second", "--until-idle")
        assert group.next_exit() == ("second", 0), group.errors("second")
        assert store.status("spot").counts["succeeded"] == 160
        assert set(group.runs().values()) == {1}, "a request was run twice"
        assert {line["attempts"] for line in store.results("spot")} == {1}
        assert store.counters()["leases_expired"] == 0
