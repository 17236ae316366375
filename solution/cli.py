"""``python -m solution``: ``demo``, ``detect LOG`` and ``threshold``.

Bad input of any kind exits with status 2 and one line naming the problem
(and, for a log, the file and line); no traceback, no partial report.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from fractions import Fraction
from pathlib import Path

from solution import demo
from solution.detector import Stopped, check_heartbeat, check_window, detect
from solution.logfile import InputError, format_time, parse_time, read_log
from solution.threshold import Threshold

EXIT_BAD_INPUT = 2
PROG = "python -m solution"


def main(argv: Sequence[str] | None = None) -> int:
    """Run one subcommand; return the exit status."""
    args = _parser().parse_args(argv)  # exits 2 with a usage line on a bad flag
    try:
        if args.command == "demo":
            return demo.main(log=args.log)
        if args.command == "detect":
            return _detect(args)
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
        "sent_at must parse but is never used.",
    )
    log.add_argument("log", type=Path, metavar="LOG")
    log.add_argument("--timeout", required=True, help="report a rank silent for more than this")
    log.add_argument("--now", help="replay as of this time (default: the latest received_at)")
    log.add_argument("--start", help="when the job started (default: the earliest received_at)")
    log.add_argument(
        "--world-size", type=int, help="number of ranks (default: the largest rank in LOG + 1)"
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
        "--miss-probability", type=Fraction, required=True, help="P(a heartbeat is lost or late)"
    )
    plan.add_argument("--ranks", type=int, required=True, help="ranks heartbeating")
    plan.add_argument("--horizon", type=int, required=True, help="time the budget covers")
    plan.add_argument("--budget", type=Fraction, default=Fraction(1), help="false alarms allowed")
    plan.add_argument("--delay", type=int, default=0, help="margin for a late heartbeat")
    return parser


def _detect(args: argparse.Namespace) -> int:
    numbered = read_log(args.log, seconds=args.seconds)
    beats = [beat for _, beat in numbered]
    received = [beat.received_at for beat in beats]
    if not beats and None in (args.now, args.start, args.world_size):
        raise InputError(f"{args.log}: no heartbeats: give --now, --start and --world-size")
    timeout = _time_flag("--timeout", args.timeout, seconds=args.seconds)
    now = _time_flag("--now", args.now, seconds=args.seconds, default=max(received, default=0))
    start = _time_flag(
        "--start", args.start, seconds=args.seconds, default=min(received, default=0)
    )
    world_size = args.world_size
    if world_size is None:
        world_size = 1 + max(beat.rank for beat in beats)
    try:
        check_window(world_size=world_size, start=start, now=now, timeout=timeout)
    except ValueError as error:
        raise InputError(str(error)) from None
    for line, beat in numbered:
        try:
            check_heartbeat(beat, world_size=world_size, start=start)
        except ValueError as error:
            raise InputError(f"{args.log}:{line}: {error}") from None
    stopped = detect(beats, world_size=world_size, start=start, now=now, timeout=timeout)
    if args.json:
        print(
            json.dumps(
                _as_json(stopped, world_size=world_size, start=start, now=now, timeout=timeout)
            )
        )
    else:
        print(
            _as_table(
                stopped, world_size=world_size, now=now, timeout=timeout, seconds=args.seconds
            )
        )
    return 0


def _time_flag(flag: str, text: str | None, *, seconds: bool, default: int = 0) -> int:
    if text is None:
        return default
    try:
        return parse_time(text, seconds=seconds)
    except ValueError as error:
        raise InputError(f"{flag}: {error}") from None


def _as_json(
    stopped: list[Stopped], *, world_size: int, start: int, now: int, timeout: int
) -> dict[str, object]:
    return {
        "world_size": world_size,
        "start": start,
        "now": now,
        "timeout": timeout,
        "stopped": [s._asdict() for s in stopped],
    }


def _as_table(
    stopped: list[Stopped], *, world_size: int, now: int, timeout: int, seconds: bool
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
    above = f"k = {k - 1}: n * p**{k - 1} = {_decimal(n * p ** (k - 1))} > {budget}"
    return [
        f"opportunities  n = ranks * horizon / interval = {plan.ranks} * {plan.horizon} / "
        f"{plan.interval} = {n}",
        f"misses         k = {k}, the smallest k >= 1 with n * p**k <= budget (p = {p})",
        *([f"                 {above}"] if k > 1 else []),
        f"                 k = {k}: n * p**{k} = {_decimal(n * p**k)} <= {budget}",
        f"timeout        k * interval + delay = {k} * {plan.interval} + {plan.delay} = "
        f"{plan.timeout}: report a rank silent for more than this",
        f"false alarms   at most {_decimal(plan.expected_false_alarms)} expected over the "
        f"horizon (budget {budget})",
        f"detection      {earliest} to {latest} after a death: (k-1) to k intervals, plus delay",
    ]


def _decimal(value: Fraction) -> str:
    """A readable rendering of an exact value (four significant digits)."""
    return f"{value.numerator / value.denominator:.4g}"
