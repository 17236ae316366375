"""The service's Prometheus series, read from the store, and the one-command demo."""

from __future__ import annotations

import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from random import Random

import pytest
from prometheus_client.parser import text_string_to_metric_families

from kata.exercises import ROOT
from tests.service.conftest import Clock
from tests.service.test_store import MakeStore, batch
from tests.support.cli_runs import python_m
from variants.jobs.backends import open_store
from variants.jobs.metrics import exposition
from variants.jobs.model import Failed
from variants.jobs.store import Settings

pytestmark = pytest.mark.reference


def series(text: str) -> dict[str, float]:
    return {s.name: s.value for f in text_string_to_metric_families(text) for s in f.samples}


def test_the_series_say_what_the_store_holds(make_store: MakeStore, clock: Clock) -> None:
    store = make_store(lease_ms=100, max_attempts=1)
    store.submit("b", batch(4))
    lease = store.claim("w", limit=2, rng=Random(0))
    assert lease is not None
    first, second = lease.requests
    store.finish(lease.id, [(first.id, {"t": 1})], rng=Random(0), worker="w", busy_ms=50)
    clock.now += 250  # the second is left to expire: a dead letter, at max_attempts 1
    store.expire(rng=Random(0))
    got = series(exposition(store))
    assert got["jobs_queue_depth"] == 2
    assert got["jobs_leased"] == 0
    assert got["jobs_oldest_waiting_seconds"] == 0.25  # submitted 250 ms ago, ready since
    assert got["jobs_leases_expired_total"] == 1
    assert got["jobs_dead_letters_total"] == 1
    assert got["jobs_retries_total"] == 0
    assert second.custom_id == "r1"


def test_a_failed_attempt_is_counted_as_a_retry(make_store: MakeStore, clock: Clock) -> None:
    store = make_store(max_attempts=2)
    store.submit("b", batch(1))
    lease = store.claim("w", limit=1, rng=Random(0))
    assert lease is not None
    store.finish(lease.id, [(lease.requests[0].id, Failed("boom", False))], rng=Random(0))
    assert series(exposition(store))["jobs_retries_total"] == 1


def test_the_demo_ends_every_request_and_prices_the_run() -> None:
    done = python_m(
        "variants", "jobs", "demo", "--requests", "1000", "--workers", "2", "--time-scale", "0.05"
    )
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].startswith("submitted 1,000 requests")
    assert any(line.strip().startswith("killed w0 (SIGKILL)") for line in lines), done.stdout
    assert '"processing": 0' in lines[-4], done.stdout
    assert "per 1,000 succeeded" in lines[-1]


def test_a_worker_serves_the_series_over_http(tmp_path: Path) -> None:
    """`worker --metrics-port`: a real process, scraped as Prometheus would, then stopped."""
    store = f"sqlite:{tmp_path / 'jobs.db'}"
    with open_store(store, Settings()) as opened:
        opened.submit("b", batch(3))
    with socket.socket() as probe:  # a free port, asked of the kernel
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    command = [sys.executable, "-m", "variants", "jobs", "worker", "--store", store]
    command += ["--metrics-port", str(port), "--time-scale", "0", "--poll-ms", "20"]
    worker = subprocess.Popen(command, cwd=ROOT)
    try:
        deadline, text = time.monotonic() + 30, ""
        while "jobs_queue_depth 0.0" not in text:  # served, and the batch done
            assert time.monotonic() < deadline, text
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=1) as page:
                    text = page.read().decode()
            except OSError:
                time.sleep(0.05)  # the server is not up yet: a real process starting
        assert series(text)["jobs_leases_expired_total"] == 0
    finally:
        worker.send_signal(signal.SIGTERM)
        assert worker.wait(timeout=10) == 0
