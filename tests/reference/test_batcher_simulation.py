"""The batcher simulation: what waiting, batch size and length buckets buy, in one seeded run."""

from __future__ import annotations

import json
import subprocess

import pytest

from tests.support.cli_runs import python_m
from variants.batcher.records import Config
from variants.batcher.simulation import SIZES, WAITS, Load, capacity, grid, padding, run

pytestmark = pytest.mark.reference


def test_a_run_is_reproducible_from_its_seed() -> None:
    config, load = Config(8, 20, max_queue=1_000), Load(requests=300)
    assert run(config, load, seed=3) == run(config, load, seed=3)
    assert run(config, load, seed=3) != run(config, load, seed=4)


def test_waiting_longer_buys_gpu_time_with_latency() -> None:
    """At a light load, every size above 1: a longer wait, a less busy GPU, a slower p50."""
    table = grid(Load(rate=0.01))
    for size in SIZES[1:]:
        shares = [table[size, wait].gpu_share for wait in WAITS]
        medians = [table[size, wait].p50 for wait in WAITS]
        assert shares == sorted(shares, reverse=True), (size, shares)
        assert medians == sorted(medians), (size, medians)


def test_size_one_cannot_keep_up_where_batching_can() -> None:
    """At 0.03 requests a tick, one launch per request saturates the GPU: its queue and
    latency grow for the whole run; a batch of 4 keeps the p99 within a few batches."""
    table = grid(Load(rate=0.03))
    assert table[1, 0].gpu_share > 0.99
    assert table[1, 0].p99 > 10_000
    assert table[4, 0].p99 < 300


def test_capacity_grows_with_the_batch_size_and_so_does_padding() -> None:
    most = capacity()
    throughputs = [most[size].throughput for size in SIZES]
    paddings = [most[size].padding_share for size in SIZES]
    assert throughputs == sorted(throughputs)
    assert paddings == sorted(paddings)


def test_length_buckets_cut_padding_and_serve_more_at_the_same_budget() -> None:
    runs = padding()
    first, buckets = runs["first come"], runs["length buckets"]
    assert buckets.padding_share < first.padding_share / 2
    assert buckets.throughput > 2 * first.throughput
    assert buckets.sent == first.sent == 2_000


def test_the_command_prints_text_and_json() -> None:
    def command(*flags: str) -> subprocess.CompletedProcess[str]:
        return python_m("variants", "batch", *flags)

    text = command()
    assert text.returncode == 0, text.stderr
    assert "first come against length buckets" in text.stdout
    report = json.loads(command("--json").stdout)
    assert set(report) == {"grid", "capacity", "padding"}
    assert len(report["grid"]) == 2 * len(SIZES) * len(WAITS)
    bad = command("--seed", "x")
    assert bad.returncode == 2
    assert "'x' is not an integer" in bad.stderr
