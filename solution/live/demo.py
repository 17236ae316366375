"""The live demo: real worker processes heartbeat to a real collector; three are broken.

One is killed (SIGKILL), one frozen (SIGSTOP), and one hangs: its training
loop stops while its heartbeat thread goes on.  The collector reports the
first two as stopped and the third as hung, and the demo sets each
detection time beside the threshold arithmetic's prediction: a rank is
reported between (k - 1) and k intervals after it stops, plus the margin
(and the collector's check period).  Every process it starts it also ends
and reaps, on Ctrl-C too.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction

from solution.live.collector import Collector
from solution.live.metrics import Metrics
from solution.threshold import Threshold

KILLED, FROZEN, HUNG = 1, 2, 3  # the ranks broken, and how


@dataclass(frozen=True)
class Detection:
    rank: int
    how: str  # "SIGKILL", "SIGSTOP", "hang"
    after: float | None  # seconds from the fault to the report; None if never reported
    predicted: tuple[float, float]  # seconds: the window the arithmetic gives


@dataclass(frozen=True)
class LiveResult:
    detections: tuple[Detection, ...]
    false_reports: tuple[int, ...]  # healthy ranks reported stopped or hung
    heard_again: bool  # the frozen rank, once continued
    reaped: bool  # every process started has exited and been waited for
    summary: tuple[str, ...]


def live(
    *,
    ranks: int = 6,
    interval: float = 0.2,
    out: Callable[[str], None] = print,
    metrics_port: int | None = None,
) -> LiveResult:
    if ranks < 4 or interval <= 0:
        raise ValueError("the demo needs at least 4 ranks and an interval > 0")
    ms = round(interval * 1000)
    margin = max(20, ms // 5)
    plan = Threshold(
        interval=ms,
        miss_probability=Fraction(1, 100),
        ranks=ranks,
        horizon=3_600_000,
        budget=Fraction(1),
        delay=margin,
    )
    timeout, stall = plan.timeout * 1_000_000, 4 * ms * 1_000_000
    check = max(1, ms // 20) * 1_000_000
    metrics = Metrics(metrics_port)
    collector = Collector(
        job=f"demo-{os.getpid()}",
        world_size=ranks,
        timeout=timeout,
        stall_timeout=stall,
        check_every=check,
        guard_window=(ms + margin) * 1_000_000,
        out=out,
        metrics=metrics,
    )
    out(
        f"collector on {collector.address[0]}:{collector.address[1]}"
        + (f", metrics on http://127.0.0.1:{metrics.port}/metrics" if metrics.port else "")
    )
    out(
        f"{ranks} ranks, a heartbeat every {ms} ms; 1% assumed lost, one false alarm an hour "
        f"allowed: k = {plan.k}, timeout {plan.timeout} ms; hung after {4 * ms} ms without progress"
    )
    workers: list[subprocess.Popen[bytes]] = []
    try:
        command = [sys.executable, "-m", "solution.live.worker", "--port"]
        command += [str(collector.address[1]), "--job", collector.job, "--interval", str(interval)]
        workers += [
            subprocess.Popen([*command, "--rank", str(rank)], stdin=subprocess.DEVNULL)
            for rank in range(ranks)
        ]
        deadline = time.monotonic() + 10
        while len(collector.heard) < ranks and time.monotonic() < deadline:
            collector.poll(interval)
        out(f"all {len(collector.heard)} ranks heard; running steady for 3 intervals")
        collector.run(3 * interval)
        faults: dict[int, tuple[str, int]] = {}
        wait = (timeout + stall) / 1e9 + 2
        # The kill and the hang first; the freeze once the kill is reported, so the two
        # silences do not begin together (the guard would take two of a few ranks falling
        # silent at once for a collector fault).
        for batch in (
            ((KILLED, "SIGKILL", signal.SIGKILL), (HUNG, "hang", signal.SIGUSR1)),
            ((FROZEN, "SIGSTOP", signal.SIGSTOP),),
        ):
            for rank, how, sig in batch:
                workers[rank].send_signal(sig)
                faults[rank] = (how, time.monotonic_ns())
                out(f"+{(faults[rank][1] - collector.start) / 1e9:8.3f} s  rank {rank}: {how}")
            end = time.monotonic() + wait
            while time.monotonic() < end and not _all_reported(collector, faults):
                collector.poll(interval / 4)
            collector.run(2 * interval)
        detections = tuple(
            _detection(collector, rank, how, at, plan, stall, check)
            for rank, (how, at) in faults.items()
        )
        workers[FROZEN].send_signal(signal.SIGCONT)
        out(f"+{(time.monotonic_ns() - collector.start) / 1e9:8.3f} s  rank {FROZEN}: SIGCONT")
        collector.run(3 * interval)
        heard_again = any(
            e.kind == "heard again" and e.rank == FROZEN for e in collector.stats.events
        )
        false = tuple(
            sorted(
                {
                    e.rank
                    for e in collector.stats.events
                    if e.kind in ("stopped", "hung") and e.rank not in faults and e.rank is not None
                }
            )
        )
        for d in detections:
            low, high = d.predicted
            found = "never" if d.after is None else f"after {d.after:.3f} s"
            out(f"rank {d.rank} ({d.how}): reported {found}; predicted {low:.3f} to {high:.3f} s")
    finally:
        reaped = _end(workers)
        summary = collector.summary()
        collector.close()
        metrics.close()
    for line in summary:
        out(line)
    return LiveResult(detections, false, heard_again, reaped, tuple(summary))


def _all_reported(collector: Collector, faults: dict[int, tuple[str, int]]) -> bool:
    events = collector.stats.events
    return all(
        any(e.rank == rank and e.kind in ("stopped", "hung") for e in events) for rank in faults
    )


def _detection(
    collector: Collector, rank: int, how: str, at: int, plan: Threshold, stall: int, check: int
) -> Detection:
    kind = "hung" if how == "hang" else "stopped"
    report = next((e for e in collector.stats.events if e.rank == rank and e.kind == kind), None)
    after = None if report is None else (report.at - at) / 1e9
    if kind == "stopped":  # the last heartbeat came up to an interval before the fault
        low, high = plan.detection_time
        predicted = (low / 1e3, (high + check / 1e6) / 1e3)
    else:  # the last step came up to half an interval before the hang, and the first
        # heartbeat carrying it up to an interval after that step
        half, whole = plan.interval / 2e3, plan.interval / 1e3
        predicted = (stall / 1e9 - half, (stall + check) / 1e9 + whole)
    return Detection(rank, how, after, predicted)


def _end(workers: list[subprocess.Popen[bytes]]) -> bool:
    """Stop every worker (continue the frozen first, so it can hear SIGTERM), and reap it."""
    for worker in workers:
        if worker.poll() is None:
            worker.send_signal(signal.SIGCONT)
            worker.terminate()
    deadline = time.monotonic() + 3
    for worker in workers:
        try:
            worker.wait(max(0.1, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            worker.kill()
            worker.wait()
    return all(worker.returncode is not None for worker in workers)
