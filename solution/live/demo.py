"""The live demo: real worker processes heartbeat to a real collector; three are broken.

One is killed (SIGKILL), one frozen (SIGSTOP), and one hangs: its training
loop stops while its heartbeat thread goes on.  The collector reports the
first two as stopped and the third as hung, and the demo sets each
detection time beside the threshold arithmetic's prediction: a rank is
reported between (k - 1) and k intervals after it stops, plus the margin
(and the collector's check period).  Every process it starts it also ends
and reaps, on Ctrl-C, SIGTERM and SIGHUP too (a second Ctrl-C during the
cleanup is held until it is done); after a SIGKILL the workers end by
themselves (see `worker`).

The collector checks nothing until every worker has been heard once (a
warm-up of at most 10 s): a worker still starting is not a rank that
stopped.  A rank not heard by then is reported as never heard.  Any rank
reported that was not broken is printed as what it is: a false report.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from fractions import Fraction

from solution.live.collector import Collector
from solution.live.metrics import Metrics
from solution.threshold import Threshold
from solution.unix import ending

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
    interrupted: bool = False  # Ctrl-C, SIGTERM or SIGHUP ended it early


def live(
    *,
    ranks: int = 6,
    interval: float = 0.2,
    out: Callable[[str], None] = print,
    metrics: Metrics | None = None,
) -> LiveResult:
    """Run the demo; `metrics`, if given, is the caller's to close."""
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
    metrics = metrics or Metrics(None)
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
    detections: tuple[Detection, ...] = ()
    faults: dict[int, tuple[str, int]] = {}
    heard_again = interrupted = False
    lifeline, alive = os.pipe()  # the workers hold the read end; its end is the demo's
    try:
        command = [sys.executable, "-m", "solution.live.worker", "--port"]
        command += [str(collector.address[1]), "--job", collector.job, "--interval", str(interval)]
        command += ["--parent", str(os.getpid()), "--lifeline", str(lifeline)]
        workers += [
            subprocess.Popen(
                [*command, "--rank", str(rank)],
                stdin=subprocess.DEVNULL,
                pass_fds=(lifeline,),
                start_new_session=True,  # the terminal's Ctrl-C is the demo's to handle
            )
            for rank in range(ranks)
        ]
        os.close(lifeline)
        deadline = time.monotonic() + 10
        while len(collector.heard) < ranks and time.monotonic() < deadline:
            collector.poll(interval, check=False)  # a worker starting up has not stopped
        missing = sorted(set(range(ranks)) - collector.heard)
        out(
            f"all {ranks} ranks heard; running steady for 3 intervals"
            if not missing
            else f"ranks {missing} not heard in 10 s: they will be reported as never heard"
        )
        collector.run(3 * interval)
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
        for d in detections:
            low, high = d.predicted
            found = "never" if d.after is None else f"after {d.after:.3f} s"
            out(f"rank {d.rank} ({d.how}): reported {found}; predicted {low:.3f} to {high:.3f} s")
    except KeyboardInterrupt:  # Ctrl-C, SIGTERM, SIGHUP: the cleanup below, then the summary
        interrupted = True
        ending()  # a second one is ignored: the demo is ending, and ends cleanly
    finally:
        with _held(signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
            os.close(alive)
            reaped = _end(workers)
            summary = collector.summary()
            collector.close()
    false = _false_reports(collector, faults)
    for line in _describe_false(collector, false):
        out(line)
    for line in summary:
        out(line)
    return LiveResult(detections, false, heard_again, reaped, tuple(summary), interrupted)


def _false_reports(collector: Collector, faults: dict[int, tuple[str, int]]) -> tuple[int, ...]:
    """Healthy ranks the collector reported stopped, never heard or hung."""
    kinds = ("stopped", "never heard", "hung")
    events = collector.stats.events
    return tuple(
        sorted({e.rank for e in events if e.kind in kinds and e.rank is not None} - set(faults))
    )


def _describe_false(collector: Collector, false: tuple[int, ...]) -> list[str]:
    if not false:
        return ["false reports: none (no healthy rank was reported)"]
    lag = collector.stats.worst_lag / 1e6
    return [
        f"false reports: rank{'s' if len(false) > 1 else ''} {', '.join(map(str, false))}, "
        f"healthy, reported all the same: false positives, this run's own (the longest a "
        f"check ran late was {lag:.1f} ms: a loaded machine delays the collector's reads)"
    ]


@contextlib.contextmanager
def _held(*signals: signal.Signals) -> Iterator[None]:
    """These signals ignored for the duration: a second Ctrl-C does not cut a cleanup short."""
    saved = [signal.signal(number, signal.SIG_IGN) for number in signals]
    try:
        yield
    finally:
        for number, handler in zip(signals, saved, strict=True):
            signal.signal(number, handler)


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
