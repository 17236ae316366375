"""The durable queue: batches, requests, leases and results in SQL, one behaviour
on SQLite and on PostgreSQL (`backends`).

The invariant is the lease exercise's (variants/leases/README.md), held by the
database: every request is queued (ready at `ready_at`), leased by exactly one
live lease, or has ended once (succeeded, errored, canceled or expired) and
never changes again; its attempts never exceed `max_attempts`.

* A lease is live while ``now <= deadline``, the deadline being its last
  renewal plus `lease_ms`: exactly `lease_ms` silent it still holds, the
  detector's boundary.  Time is the store's clock, never a worker's (the
  collector's receive time, again).
* Fencing: every write of an ending runs in a transaction that first locks the
  lease row and checks that it is live and holds the request, so a worker whose
  lease expired, and whose requests may since have been claimed again, can
  neither overwrite nor duplicate a result (`Fenced`, and nothing is written).
* A failed attempt (an error, or an expired lease) is retried after full
  jitter (`variants.retry.backoff`), drawn in the lease exercise's order, and
  after the last attempt the request is dead-lettered with its last error.
* Turns: a claim serves one batch, the one with a request ready that was served
  least recently (a batch never served first, then the one whose first request
  has waited longest), so that a small batch behind a large one waits one lease,
  not the whole large batch.
* Cost: a claim finds the batches with requests queued by a loose index scan of
  the partial index of queued requests by batch and ready time (a probe a batch),
  and reads B rows of it; expiry reads the partial index of live leases by
  deadline: O((Q + B) log n) for Q batches queued, never a scan of the queue
  (tests/service/test_query_plans.py).
* The batch API's other half: `batches` lists the store's batches, newest first (their
  counts in one GROUP BY over the batches listed); `delete` removes an ended batch and all
  of it; `redrive` sends a batch's dead letters back to the queue, not its permanent
  failures (recorded as such: `requests.permanent`), and never a request leased.
* Bounded waits: a statement that cannot have its lock or the database within a
  backend's stated bound fails as `Unavailable`, as does a lost connection; the
  caller backs off and tries again (a worker) or says so in one line (a command).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass
from random import Random
from typing import Any, NamedTuple, Protocol

from solution.logfile import InputError
from variants.jobs.intake import Submitted, check_batch_id, digest
from variants.jobs.model import Failed
from variants.retry.backoff import full_jitter

ENDED = ("succeeded", "errored", "canceled", "expired")
# The statements that must never scan (tests/service/test_query_plans.py reads their plans).
# TURNS: each batch with a request queued, once, by a loose index scan of requests_batch_ready
# (from the empty id, which no batch has: a step is a probe for the next batch id), with when
# its first request is ready and its latest lease (leases_batch).
TURNS = (
    "WITH RECURSIVE queued (batch_id) AS (SELECT ''"
    " UNION ALL SELECT (SELECT r.batch_id FROM requests r WHERE r.state = 'queued'"
    " AND r.batch_id > q.batch_id ORDER BY r.batch_id LIMIT 1)"
    " FROM queued q WHERE q.batch_id IS NOT NULL)"
    " SELECT q.batch_id,"
    " (SELECT r.ready_at FROM requests r WHERE r.state = 'queued' AND r.batch_id = q.batch_id"
    " ORDER BY r.ready_at LIMIT 1),"
    " (SELECT l.id FROM leases l WHERE l.batch_id = q.batch_id ORDER BY l.id DESC LIMIT 1)"
    " FROM queued q WHERE q.batch_id IS NOT NULL AND q.batch_id <> ''"
)
# CLAIM: one batch's requests ready the longest first.  EXPIRE: the live leases past their
# deadline.  {lock} is the backend's claim_lock: on PostgreSQL a lease row that a stalled
# writer holds is passed by, and expired by a later claim once its holder lets go.
CLAIM = (
    "WITH picked AS MATERIALIZED (SELECT id FROM requests WHERE state = 'queued'"
    " AND batch_id = ? AND ready_at <= ? ORDER BY ready_at, id LIMIT ? {lock})"
    " UPDATE requests SET state = 'leased', lease_id = ?, attempts = attempts + 1"
    " WHERE id IN (SELECT id FROM picked)"
    " RETURNING id, custom_id, params, tokens, attempts, ready_at"
)
EXPIRE = (
    "WITH due AS MATERIALIZED (SELECT id FROM leases WHERE state = 'live' AND deadline < ? {lock})"
    " UPDATE leases SET state = 'expired' WHERE id IN (SELECT id FROM due) RETURNING id"
)
# LIST: the newest `limit` batches (batches_created, read backwards) and their requests'
# states, counted in one GROUP BY (each listed batch's requests found by its key's index):
# one statement, so one moment, on both stores.
LIST = (
    "SELECT b.id, b.created_at, b.expires_at, b.canceled_at, r.state, count(r.id)"
    " FROM (SELECT id, created_at, expires_at, canceled_at FROM batches"
    " ORDER BY created_at DESC, id DESC LIMIT ?) b"
    " LEFT JOIN requests r ON r.batch_id = b.id"
    " GROUP BY b.id, b.created_at, b.expires_at, b.canceled_at, r.state"
)
# How long status and results wait to apply a closed window before they read the batch as it
# stands (the next writer applies it): a stalled writer must not stall a reader's answer.
SWEEP_WAIT_MS = 250
DAY_MS = 86_400_000


class Fenced(Exception):  # noqa: N818 (the lease exercise's name for the refusal)
    """The lease is no longer live, or no longer holds the request: nothing was written."""


class StoreError(Exception):
    """The store cannot do what was asked (its disk is full, it is read-only): one line,
    the transaction rolled back, so nothing was half-written."""


class Unavailable(StoreError):  # noqa: N818 (a state of the store, as Fenced is of a lease)
    """The store cannot be reached now: its connection was lost, or a lock (SQLite's write
    lock, a PostgreSQL row's) was not had within its bound.  Transient: try again, after a
    backoff.

    The transaction was rolled back, unless only its answer was lost after its commit: a
    fenced write tried again is then refused (Fenced), never done twice."""

    def __init__(self, reason: str) -> None:
        super().__init__(f"store unavailable ({reason})")
        self.reason = reason


class Claimed(NamedTuple):
    id: int
    custom_id: str
    params: dict[str, Any]
    tokens: int
    attempt: int  # 1 for the first


class Lease(NamedTuple):
    id: int  # increasing: the fencing token
    worker: str
    requests: tuple[Claimed, ...]  # ready the longest first


class Status(NamedTuple):
    batch_id: str
    processing_status: str  # in_progress, canceling or ended
    counts: dict[str, int]  # processing, succeeded, errored, canceled, expired
    created_at: int
    expires_at: int


class Deleted(NamedTuple):
    batch_id: str
    deleted: dict[str, int]  # the rows removed: requests, results, leases


@dataclass(frozen=True)
class Settings:
    lease_ms: int = 30_000
    max_attempts: int = 3
    base_ms: int = 1_000
    cap_ms: int = 60_000
    window_ms: int = DAY_MS  # a batch not done by then: its waiting requests expire


class Cursor(Protocol):
    @property
    def rowcount(self) -> int: ...

    def fetchall(self) -> list[Any]: ...
    def fetchone(self) -> Any: ...


class Store:
    """The queue's operations; a backend supplies the connection, the clock and
    the claim's lock clause."""

    # PostgreSQL's row locks; SQLite takes the whole database's write lock at BEGIN.
    claim_lock = ""  # FOR UPDATE SKIP LOCKED: claims pass each other's rows by
    row_lock = ""  # FOR UPDATE: a lease's writes and its expiry wait for each other
    share_lock = ""  # FOR SHARE: a failed attempt and its batch's cancel wait for each other
    read_only = False  # opened to read only: status and results read it as it stands
    tallies = "tallies"  # the counters' table ("counters" in a read-only store made before it)

    def __init__(self, settings: Settings, clock: Callable[[], int] | None) -> None:
        self.settings = settings
        self._clock = clock
        # Called inside a claim's and a finish's transaction, before the commit: the
        # crash tests kill a worker there (as etcd's failpoints); nothing otherwise.
        self.failpoint: Callable[[str], None] = lambda where: None
        self._counts: dict[str, int] = {}  # this transaction's, written at its end

    # -- what a backend provides ------------------------------------------------
    def sql(self, statement: str, params: Sequence[Any] = ()) -> Cursor:
        raise NotImplementedError

    def transaction(self, *, wait_ms: int | None = None) -> AbstractContextManager[None]:
        """All or nothing; `wait_ms`: a shorter bound than the backend's on waiting for a lock."""
        raise NotImplementedError

    def server_now(self) -> int:
        raise NotImplementedError

    def reconnect(self) -> None:
        """A new connection if the last one was lost (else nothing); Unavailable if none."""
        raise NotImplementedError

    def close(self) -> None:
        raise NotImplementedError

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def now(self) -> int:
        """Milliseconds by the store's clock (injected in tests)."""
        return self._clock() if self._clock is not None else self.server_now()

    # -- the API ------------------------------------------------------------------
    def submit(self, batch_id: str, requests: list[Submitted]) -> Status:
        """Store a batch; the same id with the same content is the same batch."""
        check_batch_id(batch_id)
        content = digest(requests)
        with self.transaction():
            now = self.now()
            # Two clients sending the same batch at once: the second waits for the first's
            # insert, then finds the batch there (ON CONFLICT), and is answered with it.
            inserted = self.sql(
                "INSERT INTO batches (id, digest, size, created_at, expires_at)"
                " VALUES (?, ?, ?, ?, ?) ON CONFLICT (id) DO NOTHING",
                [batch_id, content, len(requests), now, now + self.settings.window_ms],
            ).rowcount
            if inserted:
                self._insert(batch_id, requests, now)
            else:
                self._same_batch(batch_id, content)
        return self.status(batch_id)

    def _same_batch(self, batch_id: str, content: str) -> None:
        """A resubmission is the same batch, or refused: its content and its window."""
        row = self.sql(
            "SELECT digest, expires_at - created_at FROM batches WHERE id = ?", [batch_id]
        ).fetchone()
        if row[0] != content:
            raise InputError(f"batch {batch_id!r} exists with other content")
        if row[1] != self.settings.window_ms:
            raise InputError(
                f"batch {batch_id!r} exists with a window of {row[1]} ms,"
                f" not {self.settings.window_ms} (--window-ms)"
            )

    def status(self, batch_id: str) -> Status:
        """The batch's processing status and counts (its expiry window applied first)."""
        self._sweep()
        row = self._batch(batch_id)
        rows = self.sql(
            "SELECT state, count(*) FROM requests WHERE batch_id = ? GROUP BY state", [batch_id]
        ).fetchall()
        return _status(batch_id, row, rows)

    def batches(self, *, limit: int = 20) -> list[Status]:
        """The store's newest `limit` batches, newest first (ties by id, the greater first),
        each as `status` has it; their windows applied first, as status applies them.

        One statement: the batches read off their index by creation, and the requests of
        those listed counted in one GROUP BY, so the cost is that of a status of each
        listed batch, O(L log n + R) for R requests in the L batches listed, whatever the
        store holds besides."""
        self._sweep()
        batches: dict[str, tuple[int, int, int | None]] = {}  # created, expires, canceled
        counted: dict[str, list[tuple[str, int]]] = {}
        for batch_id, created_at, expires_at, canceled_at, state, count in self.sql(
            LIST, [limit]
        ).fetchall():
            batches[batch_id] = (created_at, expires_at, canceled_at)
            if state is not None:  # a batch of no requests (the API allows one) joins none
                counted.setdefault(batch_id, []).append((state, count))
        newest_first = sorted(batches, key=lambda b: (batches[b][0], b), reverse=True)
        return [_status(b, batches[b], counted.get(b, [])) for b in newest_first]

    def results(self, batch_id: str) -> Iterator[dict[str, Any]]:
        """Each ended request of the batch, in submission order."""
        self._sweep()
        self._batch(batch_id)
        rows = self.sql(
            "SELECT r.custom_id, r.state, r.attempts, r.error, o.output FROM requests r"
            " LEFT JOIN results o ON o.request_id = r.id"
            " WHERE r.batch_id = ? AND r.state IN ('succeeded', 'errored', 'canceled', 'expired')"
            " ORDER BY r.id",
            [batch_id],
        ).fetchall()
        for custom_id, state, attempts, error, output in rows:
            result: dict[str, Any] = {"type": state}
            if output is not None:
                result["output"] = json.loads(output)
            if error is not None and state != "succeeded":
                result["error"] = error  # the last attempt's; a success's earlier errors are moot
            yield {"custom_id": custom_id, "result": result, "attempts": attempts}

    def cancel(self, batch_id: str) -> Status:
        """Cancel what has not started; what is leased finishes (or is canceled if it fails)."""
        self._batch(batch_id)
        with self.transaction():
            now = self.now()
            self._expire_batches(now)  # an expired request stays expired
            self.sql(
                "UPDATE batches SET canceled_at = ? WHERE id = ? AND canceled_at IS NULL",
                [now, batch_id],
            )
            self.sql(
                "UPDATE requests SET state = 'canceled', ended_at = ?"
                " WHERE batch_id = ? AND state = 'queued'",
                [now, batch_id],
            )
        return self.status(batch_id)

    def delete(self, batch_id: str) -> Deleted:
        """Remove an ended batch and all of it: its requests, their results, its leases (a
        lease made before leases had a batch is no batch's, and stays).  A batch still in
        progress or canceling is refused (InputError): what is running must end first.
        Afterwards the id is free: submitting it again makes a new batch."""
        self._batch(batch_id)  # an unknown batch is named before anything is written
        with self.transaction():
            self._expire_batches(self.now())  # a batch past its window has ended: it may go
            # Locked to the commit: a redrive, or a submit of the same id, waits for us.
            canceled_at = self._batch(batch_id, lock=self.row_lock)[2]
            self._refuse_unless_ended(batch_id, canceled_at)
            return Deleted(batch_id, self._remove(batch_id))

    def redrive(self, batch_id: str) -> Status:
        """Send the batch's dead letters back to the queue: each request that ended errored
        after its attempts ran out, not one dead-lettered as permanent (retrying cannot
        help it), is queued, ready now, its attempts 0 and its last error kept until a new
        attempt ends.  A request leased, or ended otherwise, is not touched, so workers
        may run beside it.  A batch canceled or past its window is refused (InputError)."""
        self._batch(batch_id)
        with self.transaction():
            now = self.now()
            self._expire_batches(now)  # the first write: a read-only store refuses it here
            # Locked to the commit: a cancel beside us waits, then cancels what we queued;
            # or it went first, and we read the batch canceled.
            _, expires_at, canceled_at = self._batch(batch_id, lock=self.row_lock)
            if canceled_at is not None:
                raise InputError(f"batch {batch_id!r} was canceled: its window is over")
            if expires_at < now:
                raise InputError(f"batch {batch_id!r} has expired: its window is over")
            self.sql(
                "UPDATE requests SET state = 'queued', ready_at = ?, attempts = 0,"
                " ended_at = NULL WHERE batch_id = ? AND state = 'errored' AND permanent = 0",
                [now, batch_id],
            )
        return self.status(batch_id)

    # -- the workers' side: the lease exercise's operations ---------------------------
    def claim(self, worker: str, *, limit: int, rng: Random) -> Lease | None:
        """Expire what is due, then lease up to `limit` requests of one batch, the one whose
        turn it is (`_turns`), ready the longest first."""
        with self.transaction():
            now = self.now()
            self._counts.clear()
            self._expire(now, rng)
            self._flush_counts(worker)
            for batch_id in self._turns(now):
                lease = self._claim_from(batch_id, worker, now, limit)
                if lease is not None:
                    return lease
            return None

    def _turns(self, now: int) -> list[str]:
        """The batches with a request ready, in turn: the least recently served first (a batch
        never served before any other, the one whose first request has waited longest)."""
        ready = [row for row in self.sql(TURNS).fetchall() if row[1] <= now]
        ready.sort(key=lambda row: (row[2] or 0, row[1], row[0]))  # lease ids start at 1
        return [row[0] for row in ready]

    def _claim_from(self, batch_id: str, worker: str, now: int, limit: int) -> Lease | None:
        lease_id = self.sql(
            "INSERT INTO leases (worker, claimed_at, deadline, state, batch_id)"
            " VALUES (?, ?, ?, 'live', ?) RETURNING id",
            [worker, now, now + self.settings.lease_ms, batch_id],
        ).fetchone()[0]
        rows = self.sql(
            CLAIM.format(lock=self.claim_lock),
            [batch_id, now, limit, lease_id],
        ).fetchall()
        if not rows:  # on PostgreSQL: another claim, beside this one, holds its ready rows
            self.sql("DELETE FROM leases WHERE id = ?", [lease_id])
            return None
        self.failpoint("claim")
        rows.sort(key=lambda row: (row[5], row[0]))
        claimed = (Claimed(r[0], r[1], json.loads(r[2]), r[3], r[4]) for r in rows)
        return Lease(lease_id, worker, tuple(claimed))

    def renew(self, lease_id: int) -> None:
        """Extend a live lease by `lease_ms` from now; Fenced if it is not live."""
        with self.transaction():
            now = self.now()
            self.failpoint("renew")
            renewed = self.sql(
                "UPDATE leases SET deadline = ? WHERE id = ? AND state = 'live' AND deadline >= ?",
                [now + self.settings.lease_ms, lease_id, now],
            ).rowcount
            if not renewed:
                raise Fenced(f"lease {lease_id} is not live")

    def is_live(self, lease_id: int) -> bool:
        """Whether the lease is live now (a worker whose write was answered Fenced after a
        lost connection asks: live, and so its first try landed)."""
        live = self.sql(
            "SELECT 1 FROM leases WHERE id = ? AND state = 'live' AND deadline >= ?",
            [lease_id, self.now()],
        ).fetchone()
        return live is not None

    def ping(self) -> None:
        """A round trip: Unavailable if the connection is lost."""
        self.sql("SELECT 1").fetchone()

    def finish(
        self,
        lease_id: int,
        outcomes: Sequence[tuple[int, Any]],
        *,
        rng: Random,
        worker: str | None = None,
        busy_ms: int = 0,
    ) -> None:
        """End each (request id, outcome) of a live lease: an output, or a Failed attempt.

        All or nothing: Fenced, and nothing written, unless the lease is live and
        holds every one of them.
        """
        with self.transaction():
            now = self.now()
            self._counts.clear()
            self._live(lease_id, now)
            outputs = []
            for request_id, outcome in outcomes:  # failures in order: each may draw a delay
                if isinstance(outcome, Failed):
                    held = self._held(lease_id, request_id)
                    self._failed(held, outcome.error, outcome.permanent, now, rng)
                else:
                    outputs.append((request_id, lease_id, json.dumps(outcome), now))
            if outputs:  # the successes in two statements, however many: a batch's round trips
                self._succeeded(lease_id, outputs, now)
            self._maybe_over(lease_id)
            self._flush_counts(worker or "")
            if worker is not None:
                self._record(worker, now, busy_ms, len(outputs))
            self.failpoint("commit")

    def release(self, lease_id: int) -> None:
        """A spot notice: the lease's requests are ready again at once, the attempt not counted."""
        with self.transaction():
            now = self.now()
            self._live(lease_id, now)
            for state, closed, extra in (
                ("canceled", "canceled_at IS NOT NULL", []),
                ("expired", "expires_at < ?", [now]),
            ):  # a batch canceled or past its window takes its requests back: they never run
                self.sql(
                    "UPDATE requests SET state = ?, ended_at = ?, attempts = attempts - 1,"
                    " lease_id = NULL WHERE lease_id = ? AND state = 'leased' AND batch_id IN"
                    f" (SELECT id FROM batches WHERE {closed})",
                    [state, now, lease_id, *extra],
                )
            self.sql(
                "UPDATE requests SET state = 'queued', ready_at = ?, attempts = attempts - 1,"
                " lease_id = NULL WHERE lease_id = ? AND state = 'leased'",
                [now, lease_id],
            )
            self.sql("UPDATE leases SET state = 'over' WHERE id = ?", [lease_id])

    def expire(self, *, rng: Random) -> list[int]:
        """End every expired lease; each request it held is a failed attempt."""
        with self.transaction():
            self._counts.clear()
            returned = self._expire(self.now(), rng)
            self._flush_counts("")
            return returned

    def record_work(self, worker: str, *, busy_ms: int, done: int, starting: bool = False) -> None:
        """Add to a worker's GPU-busy time and requests succeeded, and mark it seen now (for the
        cost and the metrics); `starting`: a worker (re)started under this name, its time
        alive counted from now, not from its last life's start."""
        with self.transaction():
            now = self.now()
            if starting:
                self.sql(
                    "UPDATE workers SET alive_ms = alive_ms + seen_at - started_at,"
                    " started_at = ?, seen_at = ? WHERE name = ?",
                    [now, now, worker],
                )
            self._record(worker, now, busy_ms, done)

    def _record(self, worker: str, now: int, busy_ms: int, done: int) -> None:
        self.sql(
            "INSERT INTO workers (name, started_at, seen_at, busy_ms, done)"
            " VALUES (?, ?, ?, ?, ?) ON CONFLICT (name) DO UPDATE SET seen_at = excluded.seen_at,"
            " busy_ms = workers.busy_ms + excluded.busy_ms, done = workers.done + excluded.done",
            [worker, now, now, busy_ms, done],
        )

    def pending(self) -> bool:
        """Whether any request is still queued or leased (both read off a partial index)."""
        queued = self.sql("SELECT 1 FROM requests WHERE state = 'queued' LIMIT 1").fetchone()
        leased = self.sql("SELECT 1 FROM requests WHERE state = 'leased' LIMIT 1").fetchone()
        return queued is not None or leased is not None

    def snapshot(self) -> dict[str, int]:
        """What the metrics show: depths, the oldest wait, the counters, the workers' time
        (read in one transaction; on PostgreSQL each statement sees its own moment)."""
        with self.transaction():
            now = self.now()
            depth = dict(
                self.sql(
                    "SELECT state, count(*) FROM requests"
                    " WHERE state IN ('queued', 'leased') GROUP BY state"
                ).fetchall()
            )
            oldest = self.sql(
                "SELECT min(ready_at) FROM requests WHERE state = 'queued' AND ready_at <= ?", [now]
            ).fetchone()[0]
            time = self.sql(
                "SELECT coalesce(sum(alive_ms + seen_at - started_at), 0),"
                " coalesce(sum(busy_ms), 0), coalesce(sum(done), 0) FROM workers"
            ).fetchone()
            return self.counters() | {
                "queued": depth.get("queued", 0),
                "leased": depth.get("leased", 0),
                "oldest_waiting_ms": 0 if oldest is None else now - oldest,
                "alive_ms": int(time[0]),
                "busy_ms": int(time[1]),
                "done": int(time[2]),
            }

    def counters(self) -> dict[str, int]:
        rows = self.sql(f"SELECT name, sum(value) FROM {self.tallies} GROUP BY name").fetchall()
        counted = {name: int(value) for name, value in rows}
        return {"leases_expired": 0, "retries": 0, "dead_letters": 0} | counted

    # -- inside a transaction -------------------------------------------------------
    def _expire(self, now: int, rng: Random) -> list[int]:
        self._expire_batches(now)
        expired = self.sql(EXPIRE.format(lock=self.claim_lock), [now]).fetchall()
        if not expired:
            return []
        self._count("leases_expired", len(expired))
        returned = []
        for (lease_id,) in sorted(expired):  # in the order they were claimed
            rows = self.sql(
                "SELECT id, attempts, batch_id FROM requests"
                " WHERE lease_id = ? AND state = 'leased' ORDER BY ready_at, id",
                [lease_id],
            ).fetchall()
            for row in rows:
                self._failed(row, "lease expired", False, now, rng)
                returned.append(row[0])
        return returned

    def _failed(self, row: Any, error: str, permanent: bool, now: int, rng: Random) -> None:
        request_id, attempts, batch_id = row
        # Shared, to the commit: a cancel or a window's sweep of this batch waits for this
        # write, then ends the request if it was put back in the queue; or it went first,
        # and the request ends here.  Without it, both read the other's state as it was.
        closed = self.sql(
            "SELECT canceled_at IS NOT NULL, expires_at < ? FROM batches WHERE id = ?"
            f" {self.share_lock}",
            [now, batch_id],
        ).fetchone()
        if closed[0] or closed[1]:
            state, ready_at = ("canceled" if closed[0] else "expired"), now
        elif permanent or attempts >= self.settings.max_attempts:
            state, ready_at = "errored", now
            self._count("dead_letters", 1)
        else:
            s = self.settings
            state = "queued"
            ready_at = now + full_jitter(attempts, base=s.base_ms, cap=s.cap_ms, rng=rng)
            self._count("retries", 1)
        # Permanent only if dead-lettered as such: a redrive sends back the dead letters whose
        # attempts ran out, never one that retrying cannot help.
        permanent_letter = int(state == "errored" and permanent)
        self.sql(
            "UPDATE requests SET state = ?, ready_at = ?, error = ?, lease_id = NULL,"
            " ended_at = CASE WHEN ? = 'queued' THEN NULL ELSE ? END, permanent = ?"
            " WHERE id = ?",
            [state, ready_at, error, state, now, permanent_letter, request_id],
        )

    def _expire_batches(self, now: int) -> None:
        due = self.sql(
            "UPDATE batches SET swept = 1 WHERE swept = 0 AND expires_at < ? RETURNING id", [now]
        ).fetchall()
        for (batch_id,) in due:
            self.sql(
                "UPDATE requests SET state = 'expired', ended_at = ?"
                " WHERE batch_id = ? AND state = 'queued'",
                [now, batch_id],
            )

    def _live(self, lease_id: int, now: int) -> None:
        # Locks the lease row until the commit: an expiry running beside us waits, then
        # sees our writes; or it committed first, and we see the lease expired.
        live = self.sql(
            "SELECT id FROM leases WHERE id = ? AND state = 'live' AND deadline >= ?"
            f" {self.row_lock}",
            [lease_id, now],
        ).fetchone()
        if live is None:
            raise Fenced(f"lease {lease_id} is not live")

    def _held(self, lease_id: int, request_id: int) -> Any:
        row = self.sql(
            "SELECT id, attempts, batch_id FROM requests"
            " WHERE id = ? AND lease_id = ? AND state = 'leased'",
            [request_id, lease_id],
        ).fetchone()
        if row is None:
            raise Fenced(f"lease {lease_id} does not hold request {request_id}")
        return row

    def _succeeded(self, lease_id: int, outputs: list[tuple[int, int, str, int]], now: int) -> None:
        ids = [output[0] for output in outputs]
        ended = self.sql(
            "UPDATE requests SET state = 'succeeded', ended_at = ?"
            f" WHERE lease_id = ? AND state = 'leased' AND id IN ({', '.join('?' * len(ids))})",
            [now, lease_id, *ids],
        ).rowcount
        if ended != len(ids):  # one not held, or one named twice: nothing is written
            raise Fenced(f"lease {lease_id} does not hold every one of requests {ids}")
        values = ", ".join(["(?, ?, ?, ?)"] * len(outputs))
        self.sql(
            f"INSERT INTO results (request_id, lease_id, output, written_at) VALUES {values}",
            [field for output in outputs for field in output],
        )

    def _maybe_over(self, lease_id: int) -> None:
        self.sql(
            "UPDATE leases SET state = 'over' WHERE id = ? AND NOT EXISTS"
            " (SELECT 1 FROM requests WHERE lease_id = ? AND state = 'leased')",
            [lease_id, lease_id],
        )

    def _count(self, name: str, value: int) -> None:
        self._counts[name] = self._counts.get(name, 0) + value

    def _flush_counts(self, worker: str) -> None:
        # One row per counter and worker: a worker stalled inside its write holds its own
        # rows, never another's (a row per counter was every worker's, and held them all up).
        # In name order, so that two transactions of one worker never deadlock.
        for name in sorted(self._counts):
            self.sql(
                "INSERT INTO tallies (name, worker, value) VALUES (?, ?, ?)"
                " ON CONFLICT (name, worker) DO UPDATE SET value = tallies.value + excluded.value",
                [name, worker, self._counts[name]],
            )
        self._counts.clear()

    def _sweep(self) -> None:
        """Apply the windows that have closed, if that can be done at once: a writer stalled
        on what it needs leaves it to the next writer, and the batch is read as it stands."""
        if self.read_only:  # nothing can be written; a window past is swept by a writer
            return
        try:
            with self.transaction(wait_ms=SWEEP_WAIT_MS):
                self._expire_batches(self.now())
        except Unavailable:
            pass  # a lost connection fails the reads that follow, in their own words

    def _batch(self, batch_id: str, *, lock: str = "") -> Any:
        row = self.sql(
            f"SELECT created_at, expires_at, canceled_at FROM batches WHERE id = ? {lock}",
            [batch_id],
        ).fetchone()
        if row is None:
            raise InputError(f"no batch {batch_id!r} in this store")
        return row

    def _refuse_unless_ended(self, batch_id: str, canceled_at: int | None) -> None:
        running = self.sql(
            "SELECT 1 FROM requests WHERE batch_id = ? AND state IN ('queued', 'leased') LIMIT 1",
            [batch_id],
        ).fetchone()
        if running is None:
            return
        if canceled_at is None:
            raise InputError(f"batch {batch_id!r} is in progress: cancel it, or wait until it ends")
        raise InputError(f"batch {batch_id!r} is canceling: wait until it ends")

    def _remove(self, batch_id: str) -> dict[str, int]:
        """Every row of the batch, the rows that refer to another first; how many of each."""
        results = self.sql(
            "DELETE FROM results WHERE request_id IN (SELECT id FROM requests WHERE batch_id = ?)",
            [batch_id],
        ).rowcount
        requests = self.sql("DELETE FROM requests WHERE batch_id = ?", [batch_id]).rowcount
        leases = self.sql("DELETE FROM leases WHERE batch_id = ?", [batch_id]).rowcount
        self.sql("DELETE FROM batches WHERE id = ?", [batch_id])
        return {"requests": requests, "results": results, "leases": leases}

    def _insert(self, batch_id: str, requests: list[Submitted], now: int) -> None:
        raise NotImplementedError  # a backend's bulk insert


def _status(batch_id: str, row: Any, counted: Iterable[tuple[str, int]]) -> Status:
    """A batch's status from its row (created, expires, canceled) and its requests' states."""
    counts = dict.fromkeys(("processing", *ENDED), 0)
    for state, count in counted:
        counts[state if state in ENDED else "processing"] += int(count)
    status = "in_progress" if row[2] is None else "canceling"
    if counts["processing"] == 0:
        status = "ended"
    return Status(batch_id, status, counts, row[0], row[1])
