"""``python -m solution``: ``demo``, ``detect LOG``, ``threshold``, ``lab``, ``collect``, ``live``.

Bad input of any kind exits with status 2 and one line naming the problem
(and, for a log, the file and line); no traceback, no partial report.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Sequence
from decimal import Decimal, localcontext
from fractions import Fraction
from pathlib import Path

from solution import demo
from solution.detector import Heartbeat, Stopped, detect
from solution.lab import Job, causes, report
from solution.lab import run as run_lab
from solution.live.collector import Collector
from solution.live.demo import live
from solution.live.metrics import Metrics
from solution.logfile import InputError, format_time, name_of, parse_time
from solution.replay import replay
from solution.threshold import Threshold

EXIT_BAD_INPUT = 2
PROG = "python -m solution"
LAB_RANKS, LAB_HOURS = 4_096, 24  # the largest lab run: about 20 minutes on one core
RANK_LIMIT = 1 << 20  # the most ranks a world is inferred to have from a log alone
WORLD_SIZE_LIMIT = 1 << 22  # the most ranks --world-size may say (each may be listed)


def main(argv: Sequence[str] | None = None) -> int:
    """Run one subcommand; return the exit status."""
    args = _parser().parse_args(argv)  # exits 2 with a usage line on a bad flag
    try:
        if args.command == "demo":
            return demo.main(log=args.log)
        if args.command == "detect":
            return _detect(args)
        if args.command == "lab":
            return _lab(args)
        if args.command == "collect":
            return _collect(args)
        if args.command == "live":
            return _live(args)
        return _threshold(args)
    except InputError as error:
        print(f"{PROG}: error: {error}", file=sys.stderr)
        return EXIT_BAD_INPUT


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog=PROG, description="Which rank of a training job stopped, and when."
    )
    commands = parser.add_subparsers(dest="command", required=True)
    show = commands.add_parser("demo", help="a simulated job: who stopped first, and the traps")
    show.add_argument(
        "--log", type=Path, help="also write the job's heartbeat log here, as CSV for `detect`"
    )

    log = commands.add_parser(
        "detect",
        help="report the silent ranks of a heartbeat log",
        description="Report the ranks of a heartbeat log silent for more than --timeout.",
        epilog="LOG is CSV with the header rank,sent_at,received_at. Times are integer ticks "
        "of the collector's monotonic clock (any unit: ns, ms, ...; --timeout, --now and "
        "--start in the same unit), or with --seconds decimal seconds with up to 9 "
        "decimals, converted exactly to nanoseconds (never through a float). "
        "sent_at must parse but is never used. The log is read in one pass, in memory "
        "that grows with the ranks, not the lines.",
    )
    log.add_argument("log", type=Path, metavar="LOG", help="the CSV log, or - for standard input")
    log.add_argument("--timeout", required=True, help="report a rank silent for more than this")
    log.add_argument("--now", help="replay as of this time (default: the latest received_at)")
    log.add_argument("--start", help="when the job started (default: the earliest received_at)")
    log.add_argument(
        "--world-size",
        type=int,
        help=f"number of ranks (default: the largest rank in LOG + 1, if below {RANK_LIMIT:,})",
    )
    log.add_argument("--seconds", action="store_true", help="times are decimal seconds")
    log.add_argument("--json", action="store_true", help="print JSON instead of a table")

    plan = commands.add_parser(
        "threshold",
        help="the timeout for a false-alarm budget",
        description="Choose k, the consecutive misses that declare a rank stopped, so that "
        "at most --budget false alarms are expected over --horizon.",
        epilog="--interval, --horizon and --delay are integers in one unit of time; "
        "--miss-probability and --budget are exact decimals or fractions (0.01, 1/8).",
    )
    plan.add_argument("--interval", type=int, required=True, help="time between heartbeats")
    plan.add_argument(
        "--miss-probability", type=_exact, required=True, help="P(a heartbeat is lost or late)"
    )
    plan.add_argument("--ranks", type=int, required=True, help="ranks heartbeating")
    plan.add_argument("--horizon", type=int, required=True, help="time the budget covers")
    plan.add_argument("--budget", type=_exact, default=Fraction(1), help="false alarms allowed")
    plan.add_argument("--delay", type=int, default=0, help="margin for a late heartbeat")

    lab = commands.add_parser(
        "lab",
        help="what produces false positives, measured: a seeded simulation, cause by cause",
        description="Simulate a job's heartbeats with one cause of false alarms at a time, and "
        "measure every detector on the same trace against the threshold arithmetic's promise.",
    )
    lab.add_argument("--ranks", type=_bounded(16, LAB_RANKS), default=128, help="ranks (128)")
    lab.add_argument("--hours", type=_bounded(1, LAB_HOURS), default=1, help="hours of job (1)")
    lab.add_argument("--seed", type=int, default=1, help="the simulation's seed (1)")
    names = [cause.name for cause in causes(Job())]
    lab.add_argument(
        "--cause", action="append", choices=names, help="only this cause (repeatable; all)"
    )
    lab.add_argument("--json", action="store_true", help="print JSON")
    lab.add_argument("--markdown", action="store_true", help="print WRITEUP.md's tables")

    collect = commands.add_parser(
        "collect",
        help="listen for UDP heartbeats and report stopped and hung ranks as they happen",
        description="A collector: UDP heartbeats (format HB1, solution/live/wire.py) stamped on "
        "its own monotonic clock; each rank reported as it crosses the timeout; a summary at "
        "the end (Ctrl-C, or --duration).",
    )
    collect.add_argument("--job", required=True, help="the job whose heartbeats to accept")
    collect.add_argument("--world-size", type=_bounded(1, WORLD_SIZE_LIMIT), required=True)
    collect.add_argument("--timeout", type=_seconds, required=True, help="seconds of silence")
    collect.add_argument("--stall-timeout", type=_seconds, help="seconds without progress: hung")
    collect.add_argument("--host", default="127.0.0.1", help="address to listen on (127.0.0.1)")
    collect.add_argument("--port", type=_bounded(0, 65_535), default=9_999, help="UDP port (9999)")
    collect.add_argument(
        "--metrics-port", type=_bounded(0, 65_535), help="serve Prometheus metrics"
    )
    collect.add_argument("--duration", type=_seconds, help="stop after this many seconds")

    demo_live = commands.add_parser(
        "live",
        help="real processes heartbeat to a real collector; one killed, one frozen, one hung",
    )
    demo_live.add_argument("--ranks", type=_bounded(4, 64), default=8, help="worker processes (8)")
    demo_live.add_argument("--interval", type=_seconds, default=200_000_000, help="seconds (0.2)")
    demo_live.add_argument(
        "--metrics-port", type=_bounded(0, 65_535), help="serve Prometheus metrics"
    )
    return parser


def _seconds(text: str) -> int:
    """Decimal seconds, exactly, as integer nanoseconds: at least a millisecond."""
    try:
        ns = parse_time(text, seconds=True)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None
    if not 1_000_000 <= ns <= 86_400 * 10**9:
        raise argparse.ArgumentTypeError("must be between 0.001 and 86400 seconds")
    return ns


def _collect(args: argparse.Namespace) -> int:
    metrics = Metrics(args.metrics_port)
    try:
        collector = Collector(
            job=args.job,
            world_size=args.world_size,
            timeout=args.timeout,
            stall_timeout=args.stall_timeout,
            host=args.host,
            port=args.port,
            guard_window=args.timeout,
            metrics=metrics,
        )
    except OSError as error:
        raise InputError(f"cannot listen on {args.host}:{args.port}: {error.strerror}") from None
    host, port = collector.address
    print(f"listening on {host}:{port} for job {args.job!r}, {args.world_size} ranks", flush=True)
    try:
        collector.run(args.duration / 1e9 if args.duration else float("inf"))
    except KeyboardInterrupt:
        pass
    finally:
        for line in collector.summary():
            print(line)
        collector.close()
        metrics.close()
    return 0


def _live(args: argparse.Namespace) -> int:
    try:
        result = live(
            ranks=args.ranks, interval=args.interval / 1e9, metrics_port=args.metrics_port
        )
    except KeyboardInterrupt:
        print("interrupted: every worker ended and reaped", file=sys.stderr)
        return 130
    return 0 if result.reaped else 1


def _bounded(low: int, high: int) -> Callable[[str], int]:
    def parse(text: str) -> int:
        value = int(text)
        if not low <= value <= high:
            raise argparse.ArgumentTypeError(f"must be between {low} and {high:,}")
        return value

    parse.__name__ = "integer"  # argparse names the type in its message
    return parse


def _lab(args: argparse.Namespace) -> int:
    job = Job(ranks=args.ranks, hours=args.hours)
    chosen = [c for c in causes(job) if args.cause is None or c.name in args.cause]
    outcomes = [run_lab(job, cause, seed=args.seed) for cause in chosen]
    if args.json:
        print(json.dumps(report.as_json(job, outcomes, args.seed)))
    elif args.markdown:
        print(report.markdown(outcomes))
    else:
        print(report.text(job, outcomes, args.seed))
    return 0


def _detect(args: argparse.Namespace) -> int:
    timeout, now, start = (
        _time_flag(flag, text, seconds=args.seconds)
        for flag, text in (
            ("--timeout", args.timeout),
            ("--now", args.now),
            ("--start", args.start),
        )
    )
    assert timeout is not None  # --timeout is required
    if timeout < 0:
        raise InputError(f"--timeout {args.timeout} is negative: a timeout is >= 0")
    if args.world_size is not None and not 0 <= args.world_size <= WORLD_SIZE_LIMIT:
        raise InputError(
            f"--world-size {args.world_size} is not a job's size: 0 to {WORLD_SIZE_LIMIT:,} ranks"
        )
    if now is not None and start is not None and now < start:
        raise InputError(f"--now {args.now} is before --start {args.start}")
    log = replay(
        args.log,
        seconds=args.seconds,
        world_size=args.world_size,
        start=start,
        now=now,
        rank_limit=RANK_LIMIT,
    )
    if log.earliest is None or log.last is None:  # no heartbeat in the log
        if now is None or start is None or args.world_size is None:
            raise InputError(
                f"{name_of(args.log)}: no heartbeats: give --now, --start and --world-size"
            )
        log.earliest = log.last = start
    as_of = log.last if now is None else now
    since = log.earliest if start is None else start
    if as_of < since:
        raise InputError(
            f"--now {args.now} is before the first heartbeat, received at "
            f"{format_time(since, seconds=args.seconds)}: pass --start too"
        )
    world_size = log.top_rank + 1 if args.world_size is None else args.world_size
    # One heartbeat per rank, its latest as of now: the question detect answers is the same.
    latest = (Heartbeat(rank, received, received) for rank, received in log.latest.items())
    stopped = detect(latest, world_size=world_size, start=since, now=as_of, timeout=timeout)
    if args.json:
        window = {"world_size": world_size, "start": since, "now": as_of, "timeout": timeout}
        print(json.dumps({**window, "stopped": [s._asdict() for s in stopped]}))
    else:
        print(_as_table(stopped, world_size, now=as_of, timeout=timeout, seconds=args.seconds))
    return 0


def _time_flag(flag: str, text: str | None, *, seconds: bool) -> int | None:
    if text is None:
        return None
    try:
        return parse_time(text, seconds=seconds)
    except ValueError as error:
        raise InputError(f"{flag}: {error}") from None


def _as_table(
    stopped: list[Stopped], world_size: int, *, now: int, timeout: int, seconds: bool
) -> str:
    def time(ticks: int | None) -> str:
        return "never" if ticks is None else format_time(ticks, seconds=seconds)

    heading = (
        f"{len(stopped)} of {world_size} ranks silent for more than {time(timeout)} "
        f"as of {time(now)}"
    )
    if not stopped:
        return heading + "."
    rows = [("rank", "last heard", "silence", "")]
    rows += [
        (str(s.rank), time(s.last_heard), time(s.silence), "stopped first" if i == 0 else "")
        for i, s in enumerate(stopped)
    ]
    widths = [max(len(row[c]) for row in rows) for c in range(3)]
    lines = [
        "  ".join(cell.rjust(width) for cell, width in zip(row, widths, strict=False))
        + "  "
        + row[3]
        for row in rows
    ]
    return "\n".join([heading + ":", *(line.rstrip() for line in lines)])


def _threshold(args: argparse.Namespace) -> int:
    try:
        plan = Threshold(
            interval=args.interval,
            miss_probability=args.miss_probability,
            ranks=args.ranks,
            horizon=args.horizon,
            budget=args.budget,
            delay=args.delay,
        )
        k = plan.k
    except ValueError as error:
        raise InputError(str(error)) from None
    print("\n".join(explain(plan, k)))
    return 0


def explain(plan: Threshold, k: int) -> list[str]:
    """The threshold arithmetic, one step a line."""
    n, p, budget = plan.opportunities, plan.miss_probability, plan.budget
    earliest, latest = plan.detection_time
    above = f"k = {k - 1}: n * p**{k - 1} = {_about(n, p, k - 1, budget)} > {budget}"
    return [
        f"opportunities  n = ranks * horizon / interval = {plan.ranks} * {plan.horizon} / "
        f"{plan.interval} = {n}",
        f"misses         k = {k}, the smallest k >= 1 with n * p**k <= budget (p = {p})",
        *([f"                 {above}"] if k > 1 else []),
        f"                 k = {k}: n * p**{k} = {_about(n, p, k, budget)} <= {budget}",
        f"timeout        k * interval + delay = {k} * {plan.interval} + {plan.delay} = "
        f"{plan.timeout}: report a rank silent for more than this",
        f"false alarms   at most {_about(n, p, k, budget)} expected over the horizon "
        f"(budget {budget})",
        f"detection      {earliest} to {latest} after a death: (k-1) to k intervals, plus delay",
    ]


def _about(n: int, p: Fraction, k: int, budget: Fraction) -> str:
    """n * p**k to four significant digits, or as many as tell it from the budget.

    From logarithms: p**k may have millions of digits.
    """
    if n == 0 or p == 0:
        return "0"
    with localcontext() as context:
        context.prec = 40 + len(str(k))
        exponent = Decimal(n).ln() + k * (Decimal(p.numerator).ln() - Decimal(p.denominator).ln())
        limit = Decimal(budget.numerator) / Decimal(budget.denominator)
        for digits in range(4, 20):
            context.prec = digits
            value, bound = +exponent.exp(), +limit
            if value != bound:
                break
    return f"{value:.{digits}g}" if Decimal("1e-4") <= value < Decimal("1e16") else f"{value:.3e}"


def _exact(text: str) -> Fraction:
    """A decimal or a fraction, exactly (0.01, 1/8); argparse reports anything else."""
    try:
        return Fraction(text)
    except (ValueError, ZeroDivisionError):
        raise argparse.ArgumentTypeError(
            f"{text!r} is not an exact decimal or fraction such as 0.01 or 1/8"
        ) from None
