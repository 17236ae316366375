"""``python -m solution``: ``demo``, ``detect LOG``, ``threshold``, ``lab``, ``collect``, ``live``.

Bad input of any kind exits with status 2 and one line naming the problem
(and, for a log, the file and line); no traceback, no partial report.
"""

from __future__ import annotations

import argparse
import heapq
import json
import sys
from collections.abc import Iterable, Iterator, Sequence
from decimal import Decimal, localcontext
from fractions import Fraction
from pathlib import Path

from solution import demo, duckdb_engine
from solution.detector import Heartbeat, Stopped, detect
from solution.lab import Job, causes, report
from solution.lab import run as run_lab
from solution.live.collector import Collector, summary
from solution.live.demo import live
from solution.live.group import run_group
from solution.live.metrics import Metrics
from solution.live.wire import encode
from solution.logfile import InputError, format_time, name_of, parse_time, shown
from solution.replay import replay
from solution.threshold import Threshold
from solution.unix import Parser, Progress, bounded, ending, integer

EXIT_BAD_INPUT = 2
PROG = "python -m solution"
# The largest lab run: 768 times the default one (about 8 s of CPU), so about 1.5 h.
LAB_RANKS, LAB_HOURS = 4_096, 24
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
    parser = Parser(prog=PROG, description="Which rank of a training job stopped, and when.")
    commands = parser.add_subparsers(dest="command", required=True)
    show = commands.add_parser("demo", help="a simulated job: who stopped first, and the traps")
    show.add_argument(
        "--log",
        type=Path,
        help="also write the job's heartbeat log here, as CSV for `detect` (-: print only the "
        "log, to standard output)",
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
        type=integer,
        help=f"number of ranks (default: the largest rank in LOG + 1, if below {RANK_LIMIT:,})",
    )
    log.add_argument("--seconds", action="store_true", help="times are decimal seconds")
    log.add_argument("--json", action="store_true", help="print JSON instead of a table")
    log.add_argument(
        "--engine",
        choices=("python", "duckdb"),
        default="python",
        help="who reads the log: python (the standard library; the default) or duckdb (the "
        "optional extra, faster on a long log; the same report, and the same errors)",
    )

    plan = commands.add_parser(
        "threshold",
        help="the timeout for a false-alarm budget",
        description="Choose k, the consecutive misses that declare a rank stopped, so that "
        "at most --budget false alarms are expected over --horizon.",
        epilog="--interval, --horizon and --delay are integers in one unit of time; "
        "--miss-probability and --budget are exact decimals or fractions (0.01, 1/8).",
    )
    plan.add_argument("--interval", type=integer, required=True, help="time between heartbeats")
    plan.add_argument(
        "--miss-probability", type=_exact, required=True, help="P(a heartbeat is lost or late)"
    )
    plan.add_argument("--ranks", type=integer, required=True, help="ranks heartbeating")
    plan.add_argument("--horizon", type=integer, required=True, help="time the budget covers")
    plan.add_argument("--budget", type=_exact, default=Fraction(1), help="false alarms allowed")
    plan.add_argument("--delay", type=integer, default=0, help="margin for a late heartbeat")

    lab = commands.add_parser(
        "lab",
        help="what produces false positives, measured: a seeded simulation, cause by cause",
        description="Simulate a job's heartbeats with one cause of false alarms at a time, and "
        "measure every detector on the same trace against the threshold arithmetic's promise.",
    )
    lab.add_argument("--ranks", type=bounded(16, LAB_RANKS), default=128, help="ranks (128)")
    lab.add_argument("--hours", type=bounded(1, LAB_HOURS), default=1, help="hours of job (1)")
    lab.add_argument("--seed", type=integer, default=1, help="the simulation's seed (1)")
    names = [cause.name for cause in causes(Job())]
    lab.add_argument(
        "--cause", action="append", choices=names, help="only this cause (repeatable; all)"
    )
    form = lab.add_mutually_exclusive_group()
    form.add_argument("--json", action="store_true", help="print JSON")
    form.add_argument("--markdown", action="store_true", help="print WRITEUP.md's tables")

    collect = commands.add_parser(
        "collect",
        help="listen for UDP heartbeats and report stopped and hung ranks as they happen",
        description="A collector: UDP heartbeats (format HB1, solution/live/wire.py) stamped on "
        "its own monotonic clock; each rank reported as it crosses the timeout; a summary at "
        "the end (Ctrl-C, or --duration).",
    )
    collect.add_argument(
        "--job", type=_job, required=True, help="the job whose heartbeats to accept"
    )
    collect.add_argument(
        "--world-size",
        type=bounded(1, WORLD_SIZE_LIMIT),
        required=True,
        help="the job's ranks: 0 to this - 1",
    )
    collect.add_argument("--timeout", type=_seconds, required=True, help="seconds of silence")
    collect.add_argument(
        "--stall-timeout",
        type=_seconds,
        help="seconds beating without progress: hung (default: no hung reports)",
    )
    collect.add_argument("--host", default="127.0.0.1", help="address to listen on (127.0.0.1)")
    collect.add_argument("--port", type=bounded(0, 65_535), default=9_999, help="UDP port (9999)")
    collect.add_argument(
        "--metrics-port",
        type=bounded(0, 65_535),
        help="serve Prometheus metrics on 127.0.0.1 (0: any free port, printed)",
    )
    collect.add_argument(
        "--duration", type=_seconds, help="stop after this many seconds (default: at Ctrl-C)"
    )
    collect.add_argument(
        "--processes",
        type=bounded(1, 64),
        default=1,
        help="collector processes on the one port, rank %% N each (binary heartbeats; Linux)",
    )

    demo_live = commands.add_parser(
        "live",
        help="real processes heartbeat to a real collector; one killed, one frozen, one hung",
    )
    demo_live.add_argument("--ranks", type=bounded(4, 64), default=8, help="worker processes (8)")
    demo_live.add_argument("--interval", type=_seconds, default=200_000_000, help="seconds (0.2)")
    demo_live.add_argument(
        "--metrics-port", type=bounded(0, 65_535), help="serve Prometheus metrics"
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
    if args.processes > 1:
        return _collect_group(args)
    metrics = _metrics(args.metrics_port)
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
        metrics.close()
        raise InputError(f"cannot listen on {args.host}:{args.port}: {error.strerror}") from None
    host, port = collector.address
    served = f"; metrics on http://127.0.0.1:{metrics.port}/metrics" if metrics.port else ""
    try:
        print(
            f"listening on {host}:{port} for job {args.job!r}, {args.world_size} ranks{served}",
            flush=True,
        )
        collector.run(args.duration / 1e9 if args.duration else None)
    except KeyboardInterrupt:  # Ctrl-C, SIGTERM or SIGHUP: the summary all the same
        ending()
    finally:
        for line in collector.summary():
            print(line)
        collector.close()
        metrics.close()
    return 0


def _collect_group(args: argparse.Namespace) -> int:
    if args.metrics_port is not None:
        raise InputError("--metrics-port serves one collector process, not --processes > 1")
    settings = {
        "job": args.job,
        "world_size": args.world_size,
        "timeout": args.timeout,
        "stall_timeout": args.stall_timeout,
        "guard_window": args.timeout,
    }
    seconds = args.duration / 1e9 if args.duration else None
    try:
        stats, drops = run_group(
            settings, count=args.processes, host=args.host, port=args.port, seconds=seconds,
            out=lambda line: print(line, flush=True),
        )  # fmt: skip
    except OSError as error:
        raise InputError(f"cannot listen on {args.host}:{args.port}: {error.strerror}") from None
    except KeyboardInterrupt:  # the children print their summaries' share; the parent ends
        ending()
        return 0
    for line in summary(stats, drops):
        print(line)
    return 0


def _metrics(port: int | None) -> Metrics:
    """The metrics endpoint, or one line saying why it cannot be served."""
    try:
        return Metrics(port)
    except RuntimeError as error:  # the optional extra is not installed
        raise InputError(f"--metrics-port: {error}") from None
    except OSError as error:
        raise InputError(f"--metrics-port {port}: cannot listen: {error.strerror}") from None


def _live(args: argparse.Namespace) -> int:
    metrics = _metrics(args.metrics_port)
    try:
        result = live(ranks=args.ranks, interval=args.interval / 1e9, metrics=metrics)
    finally:
        metrics.close()
    if result.interrupted:
        ended = "every worker ended and reaped" if result.reaped else "a worker was not reaped"
        print(f"interrupted: {ended}", file=sys.stderr)
        return 130
    return 0 if result.reaped else 1


def _job(text: str) -> str:
    """A job name the wire format can carry: 1 to 64 of A-Z a-z 0-9 . _ -."""
    try:
        encode(text, 0, 0, 0)
    except (ValueError, UnicodeEncodeError):
        raise argparse.ArgumentTypeError(
            f"{shown(text)} is not a job name the heartbeats can carry: 1 to 64 of "
            "A-Z a-z 0-9 . _ -"
        ) from None
    return text


def _lab(args: argparse.Namespace) -> int:
    job = Job(ranks=args.ranks, hours=args.hours)
    chosen = [c for c in causes(job) if args.cause is None or c.name in args.cause]
    shown = Progress(sys.stderr)
    outcomes = []
    for number, cause in enumerate(chosen, 1):
        what = f"lab: cause {number} of {len(chosen)} ({cause.name}), rank"

        def told(done: int, what: str = what) -> None:
            shown(f"{what} {done:,} of {job.ranks:,}")

        outcomes.append(run_lab(job, cause, seed=args.seed, progress=told))
    shown.done()
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
    read = duckdb_engine.replay if args.engine == "duckdb" else replay
    log = read(
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
    report = _Report(log.latest, world_size, since, as_of, timeout)
    write = sys.stdout.write
    if args.json:
        window = {"world_size": world_size, "start": since, "now": as_of, "timeout": timeout}
        window |= {"unit": "ns" if args.seconds else "ticks", "never_heard": report.never}
        write(json.dumps(window)[:-1] + ', "stopped": [')
        rows = (_json_row(*s) for s in report.ordered())
        for i, lines in enumerate(_chunks(rows)):
            write((", " if i else "") + ", ".join(lines))
        write("]}\n")
    else:
        for lines in _chunks(_table(report, seconds=args.seconds)):
            write("\n".join(lines) + "\n")
    return 0


class _Report:
    """detect's answer for a replayed log, in its order, one rank at a time.

    The heard ranks are asked of `detect` itself; the ranks never heard (a
    --world-size of 4 million, a log of two lines) are not made one object
    each before they are printed: they come, in rank order, among the heard
    ranks whose silence equals theirs, since `start`.
    """

    def __init__(
        self, latest: dict[int, int], world_size: int, start: int, now: int, timeout: int
    ) -> None:
        ranks = sorted(latest)  # detect is asked of the heard ranks, renumbered in order
        renumbered = (Heartbeat(i, latest[rank], latest[rank]) for i, rank in enumerate(ranks))
        answer = detect(renumbered, world_size=len(ranks), start=start, now=now, timeout=timeout)
        self.heard = [s._replace(rank=ranks[s.rank]) for s in answer]
        self.latest, self.world_size, self.silence = latest, world_size, now - start
        unheard = world_size - len(ranks)
        self.never = unheard if self.silence > timeout else 0  # the never-heard ranks reported
        self.count = len(self.heard) + self.never
        self.timeout, self.now = timeout, now

    def ordered(self) -> Iterator[Stopped]:
        ties = [s for s in self.heard if s.silence == self.silence] if self.never else []
        yield from heapq.merge(ties, self._never_heard(), key=lambda s: s.rank)
        yield from self.heard[len(ties) :]

    def _never_heard(self) -> Iterator[Stopped]:
        if self.never:
            latest = self.latest
            for rank in range(self.world_size):
                if rank not in latest:
                    yield Stopped(rank, None, self.silence)

    def largest_rank(self) -> int:
        """The largest rank the report lists (-1 if none)."""
        never = next((r for r in range(self.world_size - 1, -1, -1) if r not in self.latest), -1)
        heard = max((s.rank for s in self.heard), default=-1)
        return max(heard, never if self.never else -1)


def _json_row(rank: int, last_heard: int | None, silence: int) -> str:
    """json.dumps of the row's dict, as written by hand: a million rows take a second."""
    heard = "null" if last_heard is None else last_heard
    return f'{{"rank": {rank}, "last_heard": {heard}, "silence": {silence}}}'


def _time_flag(flag: str, text: str | None, *, seconds: bool) -> int | None:
    if text is None:
        return None
    try:
        return parse_time(text, seconds=seconds)
    except ValueError as error:
        raise InputError(f"{flag}: {error}") from None


def _chunks(lines: Iterable[str], size: int = 10_000) -> Iterator[list[str]]:
    """Lines in lists of `size`: written a list at a time, never all held at once."""
    chunk: list[str] = []
    for line in lines:
        chunk.append(line)
        if len(chunk) == size:
            yield chunk
            chunk = []
    if chunk:
        yield chunk


def _table(report: _Report, *, seconds: bool) -> Iterator[str]:
    def time(ticks: int | None) -> str:
        return "never" if ticks is None else format_time(ticks, seconds=seconds)

    never = f" ({report.never:,} never heard)" if report.never else ""
    heading = (
        f"{report.count} of {report.world_size} ranks silent for more than "
        f"{time(report.timeout)} as of {time(report.now)}{never}"
    )
    if not report.count:
        yield heading + "."
        return
    yield heading + ":"
    shown = [time(s.last_heard) for s in report.heard] + (["never"] if report.never else [])
    silences = [time(s.silence) for s in report.heard] + [time(report.silence)] * bool(never)
    widths = (
        max(len("rank"), len(str(report.largest_rank()))),
        max(len("last heard"), *map(len, shown)),
        max(len("silence"), *map(len, silences)),
    )
    yield f"{'rank':>{widths[0]}}  {'last heard':>{widths[1]}}  {'silence':>{widths[2]}}"
    unheard = f"  {'never':>{widths[1]}}  {time(report.silence):>{widths[2]}}"
    first = True
    for s in report.ordered():
        if s.last_heard is None:  # a rank never heard never ran: it did not stop first
            yield f"{s.rank:>{widths[0]}}{unheard}"
            continue
        row = f"{s.rank:>{widths[0]}}  {time(s.last_heard):>{widths[1]}}"
        yield row + f"  {time(s.silence):>{widths[2]}}" + ("  stopped first" if first else "")
        first = False


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
