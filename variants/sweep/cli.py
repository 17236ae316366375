"""``python -m variants utilization LOG``: idle windows, the peak, utilization per bucket.

LOG is CSV with the header ``time,gpu,job,event`` (event: start or stop),
times integer ticks of one clock.  Bad input exits 2 naming the file and line.
"""

from __future__ import annotations

import argparse
import json
from fractions import Fraction
from pathlib import Path
from typing import Any

from solution.logfile import InputError, name_of, parse_integer, read_csv
from solution.unix import bounded, integer
from variants.sweep.events import Event, EventError, intervals_from_events
from variants.sweep.sweep import (
    Busy,
    Window,
    idle_windows,
    overlapping_jobs,
    peak_concurrency,
    underused_windows,
    utilization,
)

HEADER = ("time", "gpu", "job", "event")
BAR = 40  # characters for 100%
MAX_BUCKETS = 10_000  # rows of a report anyone could read


def add_parser(commands: Any) -> None:
    """Register the ``utilization`` subcommand."""
    command = commands.add_parser(
        "utilization",
        help="idle windows, peak and utilization per bucket of a GPU event log",
        description="Sweep a log of job start/stop events on GPUs: when the cluster was idle, "
        "its peak concurrency, utilization per bucket, and which jobs overlapped.",
        epilog="LOG is CSV with the header time,gpu,job,event (event: start or stop). Times "
        "are integer ticks of one clock (seconds, say); --until, --horizon and --bucket use "
        "the same unit. Intervals are half-open [start, end). A start never stopped is busy "
        f"until --until. A report has at most {MAX_BUCKETS:,} buckets.",
    )
    command.add_argument("log", type=Path, metavar="LOG", help="the CSV log, or - for stdin")
    command.add_argument("--gpus", type=bounded(1), required=True, help="GPUs in the cluster")
    command.add_argument(
        "--until", type=integer, help="when the log was cut (default: its last event)"
    )
    command.add_argument(
        "--horizon",
        type=integer,
        nargs=2,
        metavar=("START", "END"),
        help="default: [the first event's time, until)",
    )
    command.add_argument(
        "--bucket", type=bounded(1), default=3600, help="bucket width (default 3600)"
    )
    command.add_argument(
        "--below",
        type=bounded(1),
        help="also list the windows with fewer than this many GPUs busy (at least 1)",
    )
    command.add_argument("--json", action="store_true", help="print JSON instead of text")
    command.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """The subcommand itself; raises InputError for bad input."""
    numbered = read_events(args.log)
    if not numbered:
        raise InputError(f"{name_of(args.log)}: no events")
    events = [event for _, event in numbered]
    until = max(event.time for event in events) if args.until is None else args.until
    for line, event in numbered:
        if event.gpu >= args.gpus:
            where = f"{name_of(args.log)}:{line}"
            raise InputError(f"{where}: GPU {event.gpu} is outside [0, {args.gpus})")
    try:
        busy = intervals_from_events(events, until=until)
    except EventError as error:
        raise InputError(f"{name_of(args.log)}:{numbered[error.index][0]}: {error}") from None
    # From the first event, not 0: with epoch-second times, 0 is decades before the log.
    horizon = Window(*(args.horizon or (min(event.time for event in events), until)))
    if horizon.start > horizon.end:
        raise InputError(f"--horizon ends before it starts: {list(horizon)}")
    buckets = -(-(horizon.end - horizon.start) // args.bucket)
    if buckets > MAX_BUCKETS:
        raise InputError(
            f"--bucket {args.bucket} cuts [{horizon.start}, {horizon.end}) into {buckets:,} "
            f"buckets, more than the {MAX_BUCKETS:,} rows a report can show: pass a larger "
            "--bucket or a shorter --horizon"
        )
    report = _report(busy, args, horizon)
    print(json.dumps(report) if args.json else "\n".join(_text(report, args.gpus)))
    return 0


def read_events(path: Path) -> list[tuple[int, Event]]:
    """Every event in the CSV log at `path`, with its line number; InputError if malformed."""
    return read_csv(path, HEADER, _event)


def _event(fields: list[str]) -> Event:
    time, gpu, job, kind = (field.strip() for field in fields)
    return Event(parse_integer("time", time), parse_integer("gpu", gpu), job, kind)


def _report(busy: list[Busy], args: argparse.Namespace, horizon: Window) -> dict[str, Any]:
    shares = utilization(busy, gpus=args.gpus, horizon=horizon, bucket=args.bucket)
    peak = peak_concurrency(busy, horizon=horizon)
    report: dict[str, Any] = {
        "gpus": args.gpus,
        "horizon": list(horizon),
        "intervals": len(busy),
        "peak": {"busy": peak.busy, "window": list(peak.window)},
        "idle": [list(w) for w in idle_windows(busy, horizon=horizon)],
        "overlaps": [list(pair) for pair in overlapping_jobs(busy)],
        "utilization": [
            {"start": start, "end": min(start + args.bucket, horizon.end), "busy": str(share)}
            for start, share in zip(
                range(horizon.start, horizon.end, args.bucket), shares, strict=True
            )
        ],
    }
    if args.below is not None:
        below = underused_windows(busy, horizon=horizon, below=args.below)
        report["underused"] = {"below": args.below, "windows": [list(w) for w in below]}
    return report


def _text(report: dict[str, Any], gpus: int) -> list[str]:
    def windows(spans: list[list[int]]) -> str:
        return ", ".join(f"[{start}, {end})" for start, end in spans) or "none"

    peak = report["peak"]
    lines = [
        f"{gpus} GPUs, horizon {windows([report['horizon']])}, "
        f"{report['intervals']} busy intervals",
        f"Peak: {peak['busy']} of {gpus} GPUs busy over {windows([peak['window']])}",
        f"Idle (no GPU busy): {windows(report['idle'])}",
    ]
    if "underused" in report:
        under = report["underused"]
        lines.append(f"Fewer than {under['below']} GPUs busy: {windows(under['windows'])}")
    pairs = ", ".join(f"{a} & {b}" for a, b in report["overlaps"]) or "none"
    lines += [f"Jobs that overlapped: {pairs}", "Utilization:"]
    if not report["utilization"]:
        start, end = report["horizon"]
        lines.append(
            f"  none: the horizon [{start}, {end}) is empty (a log ends at its last event; "
            "pass --until, when it was cut, or --horizon)"
        )
    for row in report["utilization"]:
        share = Fraction(row["busy"])
        bar = "#" * round(share * BAR)  # display only: the exact share is in --json
        lines.append(f"  [{row['start']:>7}, {row['end']:>7})  {float(share):7.1%}  {bar}")
    return lines
