"""``python -m variants jobs``: the batch-inference job service's command line.

submit, status, results, cancel, list, delete and redrive speak to a
store; ``worker`` runs one worker process against it; ``metrics`` prints the
store's Prometheus series; ``demo`` runs the whole story on 10,000 requests.
Bad input exits 2 with one line naming the problem (for a file: the file and
the line), nothing stored.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import sys
from collections.abc import Callable
from fractions import Fraction
from random import Random
from typing import Any

from solution.logfile import InputError
from solution.unix import bounded, scale
from variants.jobs import demo
from variants.jobs.backends import open_store
from variants.jobs.intake import check_batch_id, read_file
from variants.jobs.model import Model
from variants.jobs.store import Settings, Status, Store
from variants.jobs.worker import WorkerConfig, stop_on_sigterm, work

CRASH_POINTS = (
    "claim",
    "write",
    "commit",
)  # inside a claim; model done, not written; in the commit


def add_parser(commands: Any) -> None:
    """Register the ``jobs`` subcommand and its own subcommands."""
    jobs = commands.add_parser(
        "jobs",
        help="the batch-inference job service: submit, status, results, cancel, list, delete,"
        " redrive, worker, metrics, demo",
        description="A durable queue of inference requests with leases, workers that batch, "
        "retries to a dead letter; on SQLite (sqlite:PATH) or PostgreSQL (postgresql://...).",
    )
    verbs = jobs.add_subparsers(dest="verb", required=True)
    for name, run, text in (
        ("submit", _submit, "submit a JSON Lines file of requests as a batch"),
        ("status", _status, "a batch's processing status and counts"),
        ("results", _results, "a batch's ended requests as JSON Lines"),
        ("cancel", _cancel, "cancel a batch's requests not yet started"),
        ("list", _list, "the store's batches, newest first, a status line each"),
        ("delete", _delete, "remove an ended batch: its requests, results and leases"),
        ("redrive", _redrive, "send a batch's dead letters back to the queue"),
        ("metrics", _metrics, "the store's series in Prometheus's text format"),
    ):
        verb = verbs.add_parser(name, help=text, description=text)
        verb.add_argument("--store", required=True, help="sqlite:PATH or postgresql://...")
        if name not in ("metrics", "list"):
            verb.add_argument("batch_id")
        if name == "list":
            verb.add_argument(
                "--limit", type=bounded(1, LIST_LIMIT), default=20, help="batches, at most (20)"
            )
        if name == "submit":
            verb.add_argument("file", help="JSON Lines: {custom_id, params} a line")
            verb.add_argument(
                "--window-ms", type=MS, default=86_400_000, help="its expiry window (24 h)"
            )
        verb.set_defaults(run=run)
    worker = verbs.add_parser("worker", help="run a worker process against a store")
    worker.add_argument("--store", required=True, help="sqlite:PATH or postgresql://...")
    _lease_flags(worker)
    _worker_flags(worker)
    worker.set_defaults(run=_worker)
    demo.add_parser(verbs)


# A page of `list`, at most: the Message Batches API's bound.  Each batch listed costs a status.
LIST_LIMIT = 1_000
MS = bounded(1, 10**12)  # milliseconds: up to 31 years, far inside a BIGINT with a clock added


def _lease_flags(parser: argparse.ArgumentParser) -> None:
    """The queue's rules, a worker's to apply: its claims, expiries and retries."""
    parser.add_argument("--lease-ms", type=MS, default=30_000, help="lease (30000)")
    parser.add_argument("--max-attempts", type=bounded(1, 1_000), default=3, help="attempts (3)")
    parser.add_argument("--base-ms", type=MS, default=1_000, help="backoff base (1000)")
    parser.add_argument("--cap-ms", type=MS, default=60_000, help="backoff cap (60000)")


def _worker_flags(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--name", default=f"worker-{os.getpid()}", help="this worker's name")
    parser.add_argument("--limit", type=bounded(1), default=64, help="requests a claim takes")
    parser.add_argument("--batch-size", type=bounded(1), default=16, help="a GPU batch, at most")
    parser.add_argument("--token-budget", type=bounded(1), default=16_384, help="padded tokens")
    parser.add_argument("--failure-rate", type=_rate, default=Fraction(0), help="per request")
    parser.add_argument("--seed", type=bounded(0), default=0, help="the model's seed (0)")
    parser.add_argument("--time-scale", type=scale, default=1.0, help="model time x this")
    parser.add_argument("--until-idle", action="store_true", help="exit when nothing is left")
    parser.add_argument("--poll-ms", type=bounded(1), default=200, help="idle wait (200)")
    parser.add_argument("--run-log", help="append a JSON line per request run")
    parser.add_argument("--metrics-port", type=bounded(0, 65_535), help="serve /metrics here")
    parser.add_argument(
        "--crash-at", action="append", default=[], metavar="POINT=P",
        help=f"SIGKILL itself with probability P at a point ({', '.join(CRASH_POINTS)}): tests",
    )  # fmt: skip
    parser.add_argument(
        "--stop-at", choices=CRASH_POINTS, metavar="POINT",
        help="SIGSTOP itself the first time it reaches a point, a pause inside a write: tests",
    )  # fmt: skip


def settings(args: argparse.Namespace) -> Settings:
    """The flags given, the rest the defaults (a verb has only the flags it uses)."""
    given = {
        name: getattr(args, name)
        for name in ("lease_ms", "max_attempts", "base_ms", "cap_ms", "window_ms")
        if hasattr(args, name)
    }
    chosen = Settings(**given)
    if chosen.cap_ms < chosen.base_ms:
        raise InputError(f"--cap-ms {chosen.cap_ms} is below --base-ms {chosen.base_ms}")
    return chosen


def _open(args: argparse.Namespace, *, create: bool = False) -> Store:
    return open_store(args.store, settings(args), create=create)


def _print_status(status: Status) -> None:
    print(json.dumps(status._asdict()))


def _submit(args: argparse.Namespace) -> int:
    check_batch_id(args.batch_id)
    requests = read_file(args.file)  # all of it checked before a store is opened
    with _open(args, create=True) as store:
        _print_status(store.submit(args.batch_id, requests))
    return 0


def _status(args: argparse.Namespace) -> int:
    with _open(args) as store:
        _print_status(store.status(args.batch_id))
    return 0


def _results(args: argparse.Namespace) -> int:
    with _open(args) as store:
        for line in store.results(args.batch_id):
            print(json.dumps(line))
    return 0


def _cancel(args: argparse.Namespace) -> int:
    with _open(args) as store:
        _print_status(store.cancel(args.batch_id))
    return 0


def _list(args: argparse.Namespace) -> int:
    with _open(args) as store:
        for status in store.batches(limit=args.limit):
            _print_status(status)
    return 0


def _delete(args: argparse.Namespace) -> int:
    with _open(args) as store:
        print(json.dumps(store.delete(args.batch_id)._asdict()))
    return 0


def _redrive(args: argparse.Namespace) -> int:
    with _open(args) as store:
        _print_status(store.redrive(args.batch_id))
    return 0


def _metrics(args: argparse.Namespace) -> int:
    from variants.jobs.metrics import exposition  # the optional prometheus_client extra

    with _open(args) as store:
        sys.stdout.write(exposition(store))
    return 0


def _rate(text: str) -> Fraction:
    try:
        rate = Fraction(text)
    except (ValueError, ZeroDivisionError):
        raise argparse.ArgumentTypeError(f"{text!r} is not a fraction (0.01, 1/100)") from None
    if not 0 <= rate <= 1:
        raise argparse.ArgumentTypeError(f"must be between 0 and 1, got {text!r}")
    return rate


def _worker(args: argparse.Namespace) -> int:
    crashes = _crash_points(args.crash_at)
    config = WorkerConfig(
        name=args.name,
        limit=args.limit,
        max_batch_size=args.batch_size,
        until_idle=args.until_idle,
        poll_ms=args.poll_ms,
        time_scale=args.time_scale,
        seed=args.seed,
        run_log=args.run_log,
    )
    model = Model(args.seed, args.failure_rate, args.token_budget)
    store_settings = settings(args)
    with _open(args) as first:  # a store not there, bad or read-only: refused before any thread
        if first.read_only:
            raise InputError(f"{args.store}: read-only, and a worker writes")
    stop = stop_on_sigterm()
    failpoint = _failpoint(
        crashes, args.stop_at, Random(f"crash/{args.seed}/{args.name}/{os.getpid()}")
    )

    def opened(role: str) -> Store:
        name = f"jobs-{role}-{args.name}"  # pg_stat_activity's application_name
        store = open_store(args.store, store_settings, create=False, application_name=name)
        store.failpoint = failpoint
        return store

    if args.metrics_port is not None:
        from variants.jobs.metrics import serve  # the optional prometheus_client extra

        try:
            serve(lambda: open_store(args.store, store_settings, create=False), args.metrics_port)
        except OSError as error:
            raise InputError(
                f"cannot serve metrics on port {args.metrics_port}: {error.strerror}"
            ) from None
    return work(opened, model, config, stop)


def _crash_points(texts: list[str]) -> dict[str, float]:
    points = {}
    for text in texts:
        point, _, chance = text.partition("=")
        if point not in CRASH_POINTS:
            raise InputError(f"--crash-at {text!r}: the points are {', '.join(CRASH_POINTS)}")
        try:
            points[point] = float(chance)
        except ValueError:
            raise InputError(f"--crash-at {text!r}: expected POINT=PROBABILITY") from None
    return points


def _failpoint(
    crashes: dict[str, float], stop_at: str | None, rng: Random
) -> Callable[[str], None]:
    """What the worker does at a failpoint: SIGKILL itself at a point's chance; SIGSTOP
    itself the first time it reaches `stop_at` (a pause, all threads, until SIGCONT)."""
    stopped: set[str] = set()

    def at(where: str) -> None:
        chance = crashes.get(where, 0.0)
        if chance and rng.random() < chance:
            os.kill(os.getpid(), signal.SIGKILL)
        if where == stop_at and where not in stopped:
            stopped.add(where)
            os.kill(os.getpid(), signal.SIGSTOP)

    return at
