"""The detector as the alert rule an engineer deploys: alerts/heartbeat.rules.yml.

Two halves, both real: Prometheus's own rule tests (`promtool test rules`, a
fake clock) hold the rules to the kata's boundary and guards; a real
collector, scraped over HTTP, serves exactly the series the rules read.
"""

from __future__ import annotations

import shutil
import socket
import subprocess
import time
import urllib.request

import pytest

from kata.exercises import ROOT
from solution.live.collector import Collector
from solution.live.metrics import Metrics
from solution.live.wire import encode

pytestmark = pytest.mark.reference

ALERTS = ROOT / "alerts"
MS = 1_000_000


def _promtool() -> str:
    found = shutil.which("promtool")
    if found is None:
        pytest.skip(
            "promtool is not installed (Debian: apt-get install prometheus); .ci/run runs it"
        )
    return found


def test_the_rules_are_valid() -> None:
    done = subprocess.run(
        [_promtool(), "check", "rules", str(ALERTS / "heartbeat.rules.yml")],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr


def test_prometheus_holds_the_rules_to_the_katas_boundary_and_guards() -> None:
    """Exactly the timeout silent does not fire, one second more does; a stalled collector
    and a mass silence each fire their own alert and no rank alert; a never-heard rank."""
    done = subprocess.run(
        [_promtool(), "test", "rules", "heartbeat.test.yml"],
        cwd=ALERTS,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr


def _scrape(port: int) -> dict[str, float]:
    from prometheus_client.parser import text_string_to_metric_families

    with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=5) as response:
        text = response.read().decode()
    found = {}
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            rank = sample.labels.get("rank")
            found[sample.name + (f"{{rank={rank}}}" if rank is not None else "")] = sample.value
    return found


def test_a_real_collector_serves_what_the_rules_read() -> None:
    """Three ranks, two of them heard: integer nanoseconds of the collector's own clock
    since it started, the timeout, the world, the one rank never heard."""
    pytest.importorskip("prometheus_client")
    clock = [10**15]  # a long uptime: what is served is relative to the collector's start
    metrics = Metrics(0)
    collector = Collector(
        job="test",
        world_size=3,
        timeout=300 * MS,
        out=lambda line: None,
        metrics=metrics,
        clock=lambda: clock[0],
    )
    try:
        address = collector.address
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sender:
            for rank in (0, 2):
                sender.sendto(encode("test", rank, 1, 1), address)
        deadline = time.monotonic() + 2
        while collector.stats.received < 2 and time.monotonic() < deadline:
            clock[0] += 1_000
            collector.poll(0.05, check=False)
        clock[0] += 7 * MS
        assert metrics.port is not None
        seen = _scrape(metrics.port)
    finally:
        collector.close()
        metrics.close()
    start = collector.start
    assert seen["heartbeat_collector_clock_nanoseconds"] == clock[0] - start
    assert seen["heartbeat_collector_timeout_nanoseconds"] == 300 * MS
    assert seen["heartbeat_collector_world_size"] == 3
    assert seen["heartbeat_collector_never_heard_ranks"] == 1
    assert seen["heartbeat_collector_last_check_nanoseconds"] == 0  # no check yet
    heard = {k: v for k, v in seen.items() if k.startswith("heartbeat_collector_last_heard")}
    assert set(heard) == {
        "heartbeat_collector_last_heard_nanoseconds{rank=0}",
        "heartbeat_collector_last_heard_nanoseconds{rank=2}",
    }
    for value in heard.values():
        assert 0 < value < seen["heartbeat_collector_clock_nanoseconds"]
        assert value == int(value)  # whole nanoseconds: the boundary stays exact
