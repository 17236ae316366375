"""A worker: claim a lease, batch its requests by length, run the model, write the
results, and renew the lease while it works.

A worker renewing its lease is a rank heartbeating: one that stops renewing
(killed, hung, cut off) is the rank that stopped, and its requests come back
to the queue once the store's clock says the lease is more than `lease_ms`
silent.  The renewals come from a thread of their own, so a long batch does
not read as a dead worker.

SIGTERM is a spot notice: the worker claims nothing more, finishes the batch in
hand, releases the rest of its lease (their attempts not counted) and exits 0.
SIGKILL: nothing runs; the lease expires and the work is redone elsewhere.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import threading
import time
from collections.abc import Callable, Hashable, Iterator
from dataclasses import dataclass
from random import Random
from typing import Any

from variants.batcher.core import Batcher
from variants.batcher.records import Config, Request
from variants.jobs.model import Failed, Model, Work
from variants.jobs.store import Claimed, Fenced, Lease, Store


@dataclass(frozen=True)
class WorkerConfig:
    name: str
    limit: int = 64  # requests a claim takes, at most
    max_batch_size: int = 16  # requests a GPU batch holds, at most
    buckets: tuple[int, ...] = (32, 128, 512)  # length boundaries: a batch is one bucket's
    poll_ms: int = 200  # how long to wait when nothing is ready
    until_idle: bool = False  # exit once no request is queued or leased
    time_scale: float = 1.0  # the model's busy time is slept times this (0: no waiting)
    seed: int = 0
    run_log: str | None = None  # append one JSON line per request run (the tests count them)


def batches(requests: list[Claimed], config: WorkerConfig, model: Model) -> Iterator[list[Claimed]]:
    """`requests` as GPU batches, by the batcher's core: one length bucket each, at most
    `max_batch_size`, within the model's token budget (each must fit it alone)."""
    core = Batcher(
        Config(
            max_batch_size=config.max_batch_size,
            max_wait=0,
            max_queue=max(1, len(requests)),
            token_budget=model.token_budget,
            buckets=config.buckets,
        )
    )
    by_id: dict[Hashable, Claimed] = {request.id: request for request in requests}
    for request in requests:
        core.submit(Request(request.id, request.tokens), now=0)
    core.close()
    while sent := core.poll(now=0).batches:
        batch = sent[0]
        yield [by_id[request_id] for request_id in batch.requests]
        core.complete(batch.id, [None] * len(batch.requests), now=0)


class Heart(threading.Thread):
    """Renews the lease in hand every third of `lease_ms`, on a connection of its own."""

    def __init__(self, open_store: Callable[[], Store]) -> None:
        super().__init__(daemon=True)
        self._open = open_store
        self._lease: int | None = None
        self.lost = threading.Event()
        self._lock = threading.Lock()
        self._stop = threading.Event()

    def hold(self, lease_id: int | None) -> None:
        with self._lock:
            self._lease = lease_id
            self.lost.clear()

    def run(self) -> None:
        store = self._open()
        every = store.settings.lease_ms / 3000
        while not self._stop.wait(every):
            with self._lock:
                if self._lease is None:
                    continue
                try:
                    store.renew(self._lease)
                except Fenced:
                    self.lost.set()
        store.close()

    def stop(self) -> None:
        self._stop.set()


def work(
    open_store: Callable[[], Store], model: Model, config: WorkerConfig, stop: threading.Event
) -> int:
    """Claim and run until `stop` is set (or, `until_idle`, nothing is left); return 0."""
    store = open_store()
    rng = Random(f"{config.seed}/{config.name}")
    heart = Heart(open_store)
    heart.start()
    log = (
        os.open(config.run_log, os.O_WRONLY | os.O_APPEND | os.O_CREAT) if config.run_log else None
    )
    store.record_work(config.name, busy_ms=0, done=0, starting=True)
    try:
        while not stop.is_set():
            lease = store.claim(config.name, limit=config.limit, rng=rng)
            if lease is None:
                store.record_work(config.name, busy_ms=0, done=0)  # idle, and alive
                if config.until_idle and not store.pending():
                    break
                stop.wait(config.poll_ms / 1000)
                continue
            heart.hold(lease.id)
            _run_lease(store, lease, model, config, rng, stop, heart, log)
            heart.hold(None)
    finally:
        heart.stop()
        store.record_work(config.name, busy_ms=0, done=0)
        store.close()
        if log is not None:
            os.close(log)
    return 0


def _run_lease(
    store: Store,
    lease: Lease,
    model: Model,
    config: WorkerConfig,
    rng: Random,
    stop: threading.Event,
    heart: Heart,
    log: int | None,
) -> None:
    budget = model.token_budget
    too_long = [r for r in lease.requests if r.tokens > budget]
    refused = [
        (r.id, Failed(f"longer than the token budget: {r.tokens} > {budget}", True))
        for r in too_long
    ]
    if refused and not _finish(store, lease, refused, rng):
        return
    for item in batches([r for r in lease.requests if r.tokens <= budget], config, model):
        if stop.is_set() or heart.lost.is_set():
            break
        ran = model.run([Work(r.custom_id, r.params, r.tokens, r.attempt) for r in item])
        time.sleep(ran.busy_ms * config.time_scale / 1000)  # the GPU at work
        if log is not None:
            lines = "".join(_log_line(config.name, lease.id, r) for r in item)
            os.write(log, lines.encode())  # one write, O_APPEND: lines never interleave
        store.failpoint("write")
        outcomes = list(zip([r.id for r in item], ran.outcomes, strict=True))
        if not _finish(store, lease, outcomes, rng, round(ran.busy_ms * config.time_scale)):
            return  # fenced: the lease is gone, and so is what it held
    if stop.is_set():
        with contextlib.suppress(Fenced):  # it expired meanwhile: nothing held to give back
            store.release(lease.id)


def _finish(
    store: Store, lease: Lease, outcomes: list[tuple[int, Any]], rng: Random, busy_ms: int = 0
) -> bool:
    try:
        store.finish(lease.id, outcomes, rng=rng, worker=lease.worker, busy_ms=busy_ms)
    except Fenced:
        return False
    return True


def _log_line(worker: str, lease_id: int, request: Claimed) -> str:
    record = {
        "worker": worker,
        "lease": lease_id,
        "custom_id": request.custom_id,
        "attempt": request.attempt,
    }
    return json.dumps(record) + "\n"


def stop_on_sigterm() -> threading.Event:
    """An event set by SIGTERM (the spot notice) or SIGINT."""
    stop = threading.Event()
    for number in (signal.SIGTERM, signal.SIGINT):
        signal.signal(number, lambda signum, frame: stop.set())
    return stop
