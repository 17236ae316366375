"""A worker: claim a lease, batch its requests by length, run the model, write the
results, and renew the lease while it works.

A worker renewing its lease is a rank heartbeating: one that stops renewing
(killed, hung, cut off) is the rank that stopped, and its requests come back
to the queue once the store's clock says the lease is more than `lease_ms`
silent.  The renewals come from a thread of their own, so a long batch does
not read as a dead worker.

A store lost is a pause, not a dead worker: a lost connection (a database
restarted, a connection killed) or a lock not had within its bound is
`Unavailable`; the worker says so in one line, waits a full jitter (the retry
exercise's, RECONNECT_BASE_MS to RECONNECT_CAP_MS, from its seeded generator),
reconnects and goes on, and says when the store is back.  What it held may have
lapsed meanwhile: fencing decides, and a write tried again after its answer
was lost is refused if the first landed, never done twice.  The renewal thread
does the same on its own connection, and never dies silently.  While it cannot
renew, the worker claims nothing and runs no further batch of its lease: it
waits for the renewals to come back for as long as the lease may still be live
by its own clock (its last renewal sent, plus `lease_ms`), and past that
abandons the lease, writing nothing more for it.

SIGTERM is a spot notice: the worker claims nothing more, finishes the batch in
hand, releases the rest of its lease (their attempts not counted) and exits 0.
SIGKILL: nothing runs; the lease expires and the work is redone elsewhere.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import sys
import threading
import time
from collections.abc import Callable, Hashable, Iterator
from dataclasses import dataclass
from random import Random
from typing import Any, TypeVar

from variants.batcher.core import Batcher
from variants.batcher.records import Config, Request
from variants.jobs.model import Failed, Model, Work
from variants.jobs.store import Claimed, Fenced, Lease, Store, Unavailable
from variants.retry.backoff import full_jitter

RECONNECT_BASE_MS = 100  # the first wait after the store is lost: a blip costs little
RECONNECT_CAP_MS = 2_000  # the longest: a database back is seen within 2 s of its return
STOP_CHECK_MS = 100  # how often a worker waiting for its renewals looks at SIGTERM
T = TypeVar("T")


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


def _say(line: str) -> None:
    print(line, file=sys.stderr, flush=True)


class Outage:
    """The store unavailable, as one connection lives it: a line when it begins, a full
    jitter before each attempt to reconnect, a line when it is over."""

    def __init__(self, who: str, rng: Random) -> None:
        self.who, self._rng = who, rng
        self._failures = 0
        self._began = 0.0

    def wait(self, error: Unavailable, store: Store, stop: threading.Event) -> None:
        """Say so (once an outage), wait the jitter out (less if `stop` is set), reconnect."""
        if self._failures == 0:
            self._began = time.monotonic()
            _say(f"{self.who}: {error}; reconnecting")
        self._failures += 1
        wait_ms = full_jitter(
            self._failures, base=RECONNECT_BASE_MS, cap=RECONNECT_CAP_MS, rng=self._rng
        )
        stop.wait(wait_ms / 1000)
        with contextlib.suppress(Unavailable):  # not back yet: the next try fails, and waits
            store.reconnect()

    def over(self) -> None:
        if self._failures:
            lasted_ms = round((time.monotonic() - self._began) * 1000)
            _say(f"{self.who}: store back after {lasted_ms} ms")
            self._failures = 0


class Heart(threading.Thread):
    """Renews the lease in hand every third of `lease_ms`, on a connection of its own (holding
    none, it proves the connection with a round trip as often).

    Fail-stop: a lost connection is reconnected with the worker's backoff and the lease
    renewed again, and meanwhile `renewing` and `well` hold the worker back; an error it
    does not expect ends the thread with a traceback, and the worker with it (both raise)."""

    def __init__(self, store: Store, who: str, rng: Random) -> None:
        super().__init__(daemon=True, name=f"{who} renewal")
        self._store = store
        self._every = store.settings.lease_ms / 3000  # seconds
        self._lease_s = store.settings.lease_ms / 1000
        self._outage = Outage(f"{who} (renewal)", rng)
        self._changed = threading.Condition()
        self._lease: int | None = None
        self._renewed = 0.0  # monotonic: when the last renewal that succeeded was sent
        self._well = True  # False from an attempt that could not reach the store to one that did
        self._lost = False  # the lease in hand was refused (Fenced): it is gone
        self._failure: BaseException | None = None
        self._stop = threading.Event()

    def hold(self, lease_id: int | None, since: float = 0.0) -> None:
        """Renew `lease_id` from now on (None: nothing); `since`: when its claim was sent."""
        with self._changed:
            self._lease, self._renewed, self._lost = lease_id, since, False

    @property
    def lost(self) -> bool:
        return self._lost

    def renewing(self) -> bool:
        """Whether the worker may go on with the lease in hand: at once while it is renewed;
        while the renewals fail or are late, once they are back, waiting no longer than the
        lease may still be live by this worker's clock.  False: it was refused, or may have
        lapsed."""
        with self._changed:
            while True:
                self._raise_failure()
                left = self._renewed + self._lease_s - time.monotonic()
                if self._lost or left <= 0:
                    return False
                late = time.monotonic() - self._renewed > 2 * self._every  # two renewals missed
                if self._well and not late:
                    return True
                self._changed.wait(left)

    def well(self, stop: threading.Event) -> bool:
        """Wait until the renewals reach the store (a worker that cannot renew claims
        nothing); False if `stop` is set first."""
        with self._changed:
            while not stop.is_set():
                self._raise_failure()
                if self._well:
                    return True
                self._changed.wait(STOP_CHECK_MS / 1000)
        return False

    def run(self) -> None:
        try:
            while not self._stop.is_set():
                if self._beat():
                    self._stop.wait(self._every)
        except BaseException as failure:  # the worker stops on it; threading prints it
            with self._changed:
                self._failure = failure
                self._changed.notify_all()
            raise
        finally:
            with contextlib.suppress(Exception):
                self._store.close()

    def stop(self) -> None:
        self._stop.set()

    def _beat(self) -> bool:
        """One renewal, or a round trip holding none; False if the store could not be
        reached (the backoff then waited out)."""
        with self._changed:
            lease = self._lease
        sent = time.monotonic()
        try:
            if lease is None:
                self._store.ping()
            else:
                self._store.renew(lease)
        except Fenced:
            self._answered(lease, renewed_at=None)
        except Unavailable as error:
            with self._changed:
                self._well = False
            self._outage.wait(error, self._store, self._stop)
            return False
        else:
            self._answered(lease, renewed_at=sent)
        self._outage.over()
        return True

    def _answered(self, lease: int | None, *, renewed_at: float | None) -> None:
        """The store answered: renewed at `renewed_at`, or (None) refused."""
        with self._changed:
            self._well = True
            if lease is not None and lease == self._lease:  # not one let go meanwhile
                if renewed_at is None:
                    self._lost = True
                else:
                    self._renewed = max(self._renewed, renewed_at)
            self._changed.notify_all()

    def _raise_failure(self) -> None:
        if self._failure is not None:
            raise RuntimeError("the renewal thread failed") from self._failure


def work(
    open_store: Callable[[str], Store], model: Model, config: WorkerConfig, stop: threading.Event
) -> int:
    """Claim and run until `stop` is set (or, `until_idle`, nothing is left); return 0.
    `open_store(role)` opens a connection: "work" for the worker's, "renew" for its heart's."""
    return Worker(open_store, model, config, stop).run()


class Worker:
    def __init__(
        self,
        open_store: Callable[[str], Store],
        model: Model,
        config: WorkerConfig,
        stop: threading.Event,
    ) -> None:
        self.model, self.config, self.stop = model, config, stop
        self.store = open_store("work")
        self.rng = Random(f"{config.seed}/{config.name}")
        self.who = f"worker {config.name}"
        self.outage = Outage(self.who, self.rng)
        # A generator of its own: the two threads' draws do not depend on each other's timing.
        self.heart = Heart(open_store("renew"), self.who, Random(f"{config.seed}/{config.name}/r"))
        self.log: int | None = None

    def run(self) -> int:
        config = self.config
        if config.run_log:
            self.log = os.open(config.run_log, os.O_WRONLY | os.O_APPEND | os.O_CREAT)
        self.heart.start()
        try:
            self._persist(lambda: self._seen(starting=True))
            while not self.stop.is_set() and self.heart.well(self.stop):
                lease, since = self._persist(self._claim)
                if lease is None:
                    self._persist(self._seen)  # idle, and alive
                    if config.until_idle and not self._persist(self.store.pending):
                        break
                    self.stop.wait(config.poll_ms / 1000)
                    continue
                self.heart.hold(lease.id, since)
                self._run_lease(lease)
                self.heart.hold(None)
        finally:
            self.heart.stop()
            with contextlib.suppress(Unavailable):
                self._seen()
            self.store.close()
            if self.log is not None:
                os.close(self.log)
        return 0

    def _claim(self) -> tuple[Lease | None, float]:
        since = time.monotonic()  # the lease's deadline is at least this plus lease_ms
        return self.store.claim(self.config.name, limit=self.config.limit, rng=self.rng), since

    def _seen(self, *, starting: bool = False) -> None:
        self.store.record_work(self.config.name, busy_ms=0, done=0, starting=starting)

    def _persist(self, action: Callable[[], T]) -> T:
        """`action`, tried again through an outage until it is done; once the worker is told
        to stop, the outage's Unavailable is raised instead."""
        while True:
            try:
                done = action()
            except Unavailable as error:
                if self.stop.is_set():
                    raise
                self.outage.wait(error, self.store, self.stop)
                continue
            self.outage.over()
            return done

    def _run_lease(self, lease: Lease) -> None:
        budget = self.model.token_budget
        too_long = [r for r in lease.requests if r.tokens > budget]
        refused = [
            (r.id, Failed(f"longer than the token budget: {r.tokens} > {budget}", True))
            for r in too_long
        ]
        if refused and not self._finish(lease, refused):
            return
        fitting = [r for r in lease.requests if r.tokens <= budget]
        for item in batches(fitting, self.config, self.model):
            if self.stop.is_set():
                break
            if not self._renewing(lease):
                return
            ran = self.model.run([Work(r.custom_id, r.params, r.tokens, r.attempt) for r in item])
            time.sleep(ran.busy_ms * self.config.time_scale / 1000)  # the GPU at work
            if self.log is not None:
                lines = "".join(_log_line(self.config.name, lease.id, r) for r in item)
                os.write(self.log, lines.encode())  # one write, O_APPEND: lines never interleave
            self.store.failpoint("write")
            outcomes = list(zip([r.id for r in item], ran.outcomes, strict=True))
            if not self._finish(lease, outcomes, round(ran.busy_ms * self.config.time_scale)):
                return  # fenced or abandoned: the lease is gone, and so is what it held
        if self.stop.is_set():
            with contextlib.suppress(Fenced):  # it expired meanwhile: nothing held to give back
                self._persist(lambda: self.store.release(lease.id))

    def _renewing(self, lease: Lease) -> bool:
        """Whether the lease is still renewed (waiting for the renewals, if they fail, as
        long as it may be live); if it may have lapsed, the worker abandons it, and says so."""
        if self.heart.renewing():
            return True
        if not self.heart.lost:  # refused: fenced, as a lease expired always was
            _say(
                f"{self.who}: lease {lease.id} not renewed for its {self.store.settings.lease_ms}"
                " ms; abandoned, nothing more written for it"
            )
        return False

    def _finish(self, lease: Lease, outcomes: list[tuple[int, Any]], busy_ms: int = 0) -> bool:
        """Write the outcomes of a lease still renewed; False if it is gone (fenced, or
        abandoned).  Tried again through an outage: a try refused after one whose answer
        was lost landed if the lease is still live (nothing else ends what it holds)."""
        retried = False
        while self._renewing(lease):
            try:
                self.store.finish(
                    lease.id, outcomes, rng=self.rng, worker=lease.worker, busy_ms=busy_ms
                )
            except Fenced:
                return retried and self._persist(lambda: self.store.is_live(lease.id))
            except Unavailable as error:
                if self.stop.is_set():
                    raise
                retried = True
                self.outage.wait(error, self.store, self.stop)
                continue
            self.outage.over()
            return True
        return False


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
