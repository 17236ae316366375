"""``python -m variants jobs demo``: 10,000 requests, 4 workers, one killed midway.

The story in one command: a batch is submitted, four worker processes claim
and batch it, one is killed with SIGKILL when half the batch is done, its
leases expire on the store's clock and its requests are redone by the others;
the poisoned requests end in the dead-letter queue, and the counts and the
cost close the run.
"""

from __future__ import annotations

import argparse
import json
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from random import Random
from typing import Any

from solution.unix import bounded, scale
from variants.jobs.backends import open_store
from variants.jobs.intake import read_requests
from variants.jobs.model import PRICE_PER_GPU_HOUR
from variants.jobs.store import Settings, Store

LEASE_MS = 2_000  # short, so the killed worker's requests come back within the demo


def add_parser(verbs: Any) -> None:
    demo = verbs.add_parser("demo", help="10,000 requests, 4 workers, one SIGKILLed midway")
    demo.add_argument("--requests", type=bounded(1), default=10_000, help="how many (10000)")
    demo.add_argument("--workers", type=bounded(1, 64), default=4, help="worker processes (4)")
    demo.add_argument("--store", help="sqlite:PATH or postgresql://... (a new SQLite file)")
    demo.add_argument("--time-scale", type=scale, default=0.25, help="model time x this (0.25)")
    demo.add_argument("--seed", type=bounded(0), default=1, help="the workload's seed (1)")
    demo.add_argument("--no-kill", action="store_true", help="kill no worker")
    demo.set_defaults(run=run)


def workload(count: int, seed: int) -> list[str]:
    """JSON lines: prompts of 5 to 1,500 words, skewed short; 1 in 200 poisoned."""
    rng = Random(seed)
    lines = []
    for number in range(count):
        words = min(1_500, int(5 * 300 ** rng.random()))
        params: dict[str, Any] = {"prompt": " ".join(["word"] * words), "max_tokens": 64}
        if rng.random() < 1 / 200:
            params["poison"] = True
        lines.append(json.dumps({"custom_id": f"req-{number:05d}", "params": params}))
    return lines


def run(args: argparse.Namespace) -> int:
    with tempfile.TemporaryDirectory(prefix="jobs-demo-") as folder:
        url = args.store or f"sqlite:{Path(folder) / 'jobs.db'}"
        store = open_store(url, Settings(lease_ms=LEASE_MS, base_ms=200, cap_ms=2_000))
        requests = read_requests(workload(args.requests, args.seed), source="the demo's workload")
        store.submit("demo", requests)
        poisoned = sum(r.params.get("poison") is True for r in requests)
        print(f"submitted {len(requests):,} requests ({poisoned} poisoned) to {url}")
        started = time.monotonic()
        workers = [_start(url, f"w{n}", args) for n in range(args.workers)]
        killed = _watch(store, url, workers, args, started)
        for worker in workers:
            worker.wait()
        _report(store, time.monotonic() - started, killed, args.time_scale)
    return 0


def _start(url: str, name: str, args: argparse.Namespace) -> subprocess.Popen[bytes]:
    command = [sys.executable, "-m", "variants", "jobs", "worker", "--store", url, "--name", name]
    command += ["--lease-ms", str(LEASE_MS), "--base-ms", "200", "--cap-ms", "2000"]
    command += ["--until-idle", "--time-scale", str(args.time_scale), "--poll-ms", "50"]
    return subprocess.Popen(command)


def _watch(
    store: Store,
    url: str,
    workers: list[subprocess.Popen[bytes]],
    args: argparse.Namespace,
    started: float,
) -> str | None:
    killed, shown = None, -1.0
    while any(worker.poll() is None for worker in workers):
        counts = store.status("demo").counts
        now = time.monotonic() - started
        if now - shown >= 0.5:  # a line every half second; a look every 50 ms, so that a
            shown = now  # quick run is not half done and over between two looks
            line = ", ".join(f"{state} {count:,}" for state, count in counts.items())
            print(f"{now:5.1f} s  {line}", flush=True)
        if killed is None and not args.no_kill and counts["succeeded"] >= args.requests // 2:
            workers[0].send_signal(signal.SIGKILL)
            killed = "w0"
            print(
                f"         killed w0 (SIGKILL): its leases expire after {LEASE_MS} ms", flush=True
            )
        time.sleep(0.05)
    return killed


def _report(store: Store, seconds: float, killed: str | None, scale: float) -> None:
    status, snapshot = store.status("demo"), store.snapshot()
    print(f"ended in {seconds:.1f} s: {json.dumps(status.counts)}")
    print(
        f"leases expired {snapshot['leases_expired']}, retries {snapshot['retries']},"
        f" dead letters {snapshot['dead_letters']}"
        + (f" (after {killed} was killed)" if killed else "")
    )
    attempts: dict[int, int] = {}
    for line in store.results("demo"):
        attempts[line["attempts"]] = attempts.get(line["attempts"], 0) + 1
    print("attempts per request: " + ", ".join(f"{k}: {v:,}" for k, v in sorted(attempts.items())))
    if scale > 0:
        hours = snapshot["alive_ms"] / scale / 3_600_000  # at the model's full speed
        busy = snapshot["busy_ms"] / snapshot["alive_ms"] if snapshot["alive_ms"] else 0.0
        dollars = hours * PRICE_PER_GPU_HOUR
        each = dollars / status.counts["succeeded"] * 1000 if status.counts["succeeded"] else 0.0
        print(
            f"GPU time {hours:.3f} GPU-hours at full speed, {busy:.0%} busy;"
            f" ${dollars:.2f} at ${PRICE_PER_GPU_HOUR:.2f}/GPU-hour,"
            f" ${each:.3f} per 1,000 succeeded"
        )
