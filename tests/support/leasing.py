"""The lease queue from the tests' side: sessions of calls, and a model.

A `Session` is a queue's settings, its random seed and a list of steps;
asked of an implementation it gives a transcript: "ok" for a call done, a
claim as ("lease", k, items) where k counts the leases claimed so far (the
ids a module chooses are its own; the harness checks they increase), the
requests an `expire` returned (a set), a request's `Item`.  `Fenced` and
`ValueError` are observations.  An operation that raises must change
nothing: after each refusal the harness reads every request again.

Steps name leases by k, the order they were claimed (1 for the first).

`Model` is the contract in its own words, brute force: the oracle of the
property tests.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass, field, replace
from functools import partial
from random import Random
from typing import Any

from kata.cost import cost_question, work
from kata.impl import Implementation, Module
from kata.outcomes import Question, ShapeError, brief
from tests.support.sessions import Shown, Transcript, expect_transcript, play

Step = tuple[Any, ...]
Observation = Any
STATUSES = frozenset({"ready", "waiting", "leased", "succeeded", "dead"})
EXPIRED = "lease expired"


def submit(item_id: Hashable, now: int) -> Step:
    return ("submit", item_id, now)


def claim(worker: str, now: int, limit: int = 1) -> Step:
    return ("claim", worker, now, limit)


def renew(lease: int, now: int) -> Step:
    return ("renew", lease, now)


def complete(lease: int, item_id: Hashable, now: int, result: object = None) -> Step:
    return ("complete", lease, item_id, f"out:{item_id}" if result is None else result, now)


def fail(lease: int, item_id: Hashable, now: int, error: str = "oom") -> Step:
    return ("fail", lease, item_id, error, now)


def release(lease: int, now: int) -> Step:
    return ("release", lease, now)


def expire(now: int) -> Step:
    return ("expire", now)


def item(item_id: Hashable) -> Step:
    return ("item", item_id)


def leased(k: int, *items: Hashable) -> Observation:
    return ("lease", k, tuple(items))


def expired(*items: Hashable) -> Observation:
    return ("expired", frozenset(items))


def state(
    status: str, attempts: int, result: object = None, error: str | None = None
) -> Observation:
    return ("item", status, attempts, result, error)


def succeeded(item_id: Hashable, attempts: int = 1) -> Observation:
    return state("succeeded", attempts, f"out:{item_id}")


TOP = -1  # a Session's seed that draws every delay at its top: rng.randint(0, b) is b


class Highest(Random):
    """Draws at the top of the range: the contract's one draw, randint(0, bound), is bound,
    so the bound itself is seen exactly (a float's rounding of it included)."""

    def randint(self, a: int, b: int) -> int:
        return b


def rng_of(seed: int) -> Random:
    return Highest() if seed == TOP else Random(seed)


@dataclass(frozen=True)
class Session:
    steps: tuple[Step, ...]
    lease_ticks: int = 10
    max_attempts: int = 3
    base: int = 4
    cap: int = 100
    seed: int = 1

    @classmethod
    def of(cls, steps: Sequence[Step], **settings: int) -> Session:
        return cls(tuple(steps), **settings)

    def then(self, *steps: Step) -> Session:
        return replace(self, steps=self.steps + steps)

    def header(self) -> str:
        return (
            f"q = Queue(lease_ticks={self.lease_ticks}, max_attempts={self.max_attempts}, "
            f"base={self.base}, cap={self.cap}, "
            f"rng={'Highest()' if self.seed == TOP else f'Random({self.seed})'})"
        )

    def __str__(self) -> str:
        return "\n".join(
            [self.header(), *(f"{i:>3}. {call(s)}" for i, s in enumerate(self.steps, 1))]
        )


def call(step: Step) -> str:
    kind, *rest = step
    if kind == "submit":
        return f"q.submit({rest[0]!r}, now={rest[1]})"
    if kind == "claim":
        return f"lease = q.claim({rest[0]!r}, now={rest[1]}, limit={rest[2]})"
    if kind in ("renew", "release"):
        return f"q.{kind}(<lease {rest[0]}>.id, now={rest[1]})"
    if kind in ("complete", "fail"):
        lease, item_id, detail, now = rest
        return f"q.{kind}(<lease {lease}>.id, {item_id!r}, {detail!r}, now={now})"
    if kind == "expire":
        return f"q.expire(now={rest[0]})"
    return f"q.item({rest[0]!r})"


def observed(observation: Observation) -> str:
    if isinstance(observation, tuple) and observation[:1] == ("lease",):
        return f"<lease {observation[1]}> holding {list(observation[2])}"
    if isinstance(observation, tuple) and observation[:1] == ("expired",):
        return f"expired {sorted(observation[1], key=repr)}"
    if isinstance(observation, tuple) and observation[:1] == ("item",):
        _, status, attempts, result, error = observation
        extra = (f", result {result!r}" if result is not None else "") + (
            f", error {error!r}" if error is not None else ""
        )
        return f"Item({status}, attempts {attempts}{extra})"
    return str(observation)


# --- asking ---------------------------------------------------------------------------------


def session(script: Session) -> Question:
    return Question(str(script), partial(_run, script), _shown(script).transcript)


def _shown(script: Session) -> Shown:
    return Shown(script.header(), [call(s) for s in script.steps], observed)


def expect_session(
    impl: Implementation, script: Session, want: Sequence[Observation], *, rule: str
) -> None:
    expect_transcript(impl, session(script), _shown(script), want, rule=rule)


def expect_model(impl: Implementation, script: Session, *, rule: str) -> None:
    expect_session(impl, script, model(script), rule=rule)


def construction(**settings: Any) -> Question:
    """``Queue(**settings, rng=Random(1))``: made, or what it raised."""
    shown = ", ".join(f"{k}={v!r}" for k, v in settings.items())
    return Question(f"Queue({shown}, rng=Random(1))", partial(_ask_made, tuple(settings.items())))


def _ask_made(settings: tuple[tuple[str, Any], ...], impl: Module) -> str:
    impl.require("Queue")(**dict(settings), rng=Random(1))
    return "made"


def _run(script: Session, impl: Module) -> Transcript:
    queue = impl.require("Queue")(
        lease_ticks=script.lease_ticks,
        max_attempts=script.max_attempts,
        base=script.base,
        cap=script.cap,
        rng=rng_of(script.seed),
    )
    fenced = impl.type_named("Fenced")
    leases: list[Any] = []
    items: list[Hashable] = []

    def snapshot() -> tuple[Any, ...]:
        def quietly(item_id: Hashable) -> Any:
            try:
                return _item(queue.item(item_id))
            except (ValueError, fenced):
                return None

        return tuple(quietly(i) for i in items)

    def do(step: Step) -> Observation:
        before = snapshot()
        try:
            return _do(queue, step, leases, items)
        except (ValueError, fenced):
            if snapshot() != before:
                return "refused, but it changed a request"
            raise

    return play(impl, script.steps, do, {"Fenced": fenced, "ValueError": ValueError})


def _lease_id(leases: list[Any], k: int) -> Any:
    return leases[k - 1] if 0 < k <= len(leases) else 10**9 + k  # a lease never claimed


def _do(queue: Any, step: Step, leases: list[Any], items: list[Hashable]) -> Observation:
    kind, *rest = step
    if kind == "submit":
        queue.submit(rest[0], now=rest[1])
        items.append(rest[0])
    elif kind == "claim":
        lease = queue.claim(rest[0], now=rest[1], limit=rest[2])
        if lease is None:
            return None
        try:
            lease_id, held = lease.id, tuple(lease.items)
        except (AttributeError, TypeError):
            raise ShapeError("a Lease has an id and its items", brief(lease)) from None
        if leases and not lease_id > leases[-1]:
            raise ShapeError("lease ids increase: the fencing token", brief(lease))
        leases.append(lease_id)
        return leased(len(leases), *held)
    elif kind in ("renew", "release"):
        getattr(queue, kind)(_lease_id(leases, rest[0]), now=rest[1])
    elif kind in ("complete", "fail"):
        lease, item_id, detail, now = rest
        getattr(queue, kind)(_lease_id(leases, lease), item_id, detail, now=now)
    elif kind == "expire":
        returned = queue.expire(now=rest[0])
        if not isinstance(returned, list | tuple) or len(set(returned)) != len(returned):
            raise ShapeError("expire() returns a list of request ids, each once", brief(returned))
        return expired(*returned)
    else:
        return _item(queue.item(rest[0]))
    return "ok"


def _item(record: Any) -> Observation:
    try:
        status, attempts = record.status, record.attempts
        result, error = record.result, record.error
    except AttributeError as missing:
        raise ShapeError(
            f"an Item has status, attempts, result, error: {missing}", brief(record)
        ) from None
    if status not in STATUSES:
        raise ShapeError(f"a request's status is one of {sorted(STATUSES)}", brief(record))
    return state(status, attempts, result, error)


# --- the model ------------------------------------------------------------------------------


class _Refused(Exception):  # noqa: N818 (the model's own ValueError or Fenced)
    def __init__(self, name: str) -> None:
        super().__init__(name)
        self.name = name


def _refuse_if(condition: bool, name: str = "ValueError") -> None:
    if condition:
        raise _Refused(name)


@dataclass
class _Request:
    id: Hashable
    submission: int
    ready_at: int
    status: str = "queued"
    attempts: int = 0
    result: object = None
    error: str | None = None
    lease: int | None = None


@dataclass
class _Lease:
    k: int
    items: list[Hashable]
    renewed_at: int


@dataclass
class Model:
    """The contract, call by call, by scanning every request and lease."""

    lease_ticks: int
    max_attempts: int
    base: int
    cap: int
    rng: Random
    requests: dict[Hashable, _Request] = field(default_factory=dict)
    leases: list[_Lease] = field(default_factory=list)
    now: int | None = None

    @classmethod
    def of(cls, script: Session) -> Model:
        return cls(
            script.lease_ticks, script.max_attempts, script.base, script.cap, rng_of(script.seed)
        )

    def step(self, step: Step) -> Observation:
        kind, *rest = step
        try:
            return getattr(self, f"_{kind}")(*rest)
        except _Refused as refused:
            return refused.name

    def _time(self, now: int) -> None:
        _refuse_if(self.now is not None and now < self.now)

    def _submit(self, item_id: Hashable, now: int) -> Observation:
        self._time(now)
        _refuse_if(item_id in self.requests)
        self.now = now
        self.requests[item_id] = _Request(item_id, len(self.requests), now)
        return "ok"

    def _held(self, lease: _Lease) -> list[_Request]:
        found = [self.requests[i] for i in lease.items]
        return [r for r in found if r.status == "leased" and r.lease == lease.k]

    def _expired(self, lease: _Lease, now: int) -> bool:
        return now - lease.renewed_at > self.lease_ticks

    def _expire_due(self, now: int) -> list[Hashable]:
        returned = []
        for lease in self.leases:  # in the order claimed
            held = self._held(lease)
            if held and self._expired(lease, now):
                for request in held:
                    self._failed(request, EXPIRED, now)
                    returned.append(request.id)
        return returned

    def _failed(self, request: _Request, error: str, now: int) -> None:
        request.error, request.lease = error, None
        if request.attempts >= self.max_attempts:
            request.status = "dead"
            return
        ceiling = min(self.cap, self.base * 2 ** min(request.attempts - 1, 64))
        request.status, request.ready_at = "queued", now + self.rng.randint(0, ceiling)

    def _claim(self, worker: str, now: int, limit: int) -> Observation:
        self._time(now)
        _refuse_if(limit < 1)
        self.now = now
        self._expire_due(now)
        ready = sorted(
            (r for r in self.requests.values() if r.status == "queued" and r.ready_at <= now),
            key=lambda r: (r.ready_at, r.submission),
        )[:limit]
        if not ready:
            return None
        lease = _Lease(len(self.leases) + 1, [r.id for r in ready], now)
        self.leases.append(lease)
        for request in ready:
            request.status, request.lease = "leased", lease.k
            request.attempts += 1
        return leased(lease.k, *lease.items)

    def _live(self, k: int, now: int) -> _Lease:
        self._time(now)
        _refuse_if(not 0 < k <= len(self.leases))
        lease = self.leases[k - 1]
        _refuse_if(not self._held(lease) or self._expired(lease, now), "Fenced")
        return lease

    def _renew(self, k: int, now: int) -> Observation:
        lease = self._live(k, now)
        self.now, lease.renewed_at = now, now
        return "ok"

    def _holding(self, k: int, item_id: Hashable, now: int) -> _Request:
        lease = self._live(k, now)
        _refuse_if(item_id not in self.requests)
        request = self.requests[item_id]
        _refuse_if(request.status != "leased" or request.lease != lease.k, "Fenced")
        return request

    def _complete(self, k: int, item_id: Hashable, result: object, now: int) -> Observation:
        request = self._holding(k, item_id, now)
        self.now = now
        request.status, request.result, request.lease = "succeeded", result, None
        return "ok"

    def _fail(self, k: int, item_id: Hashable, error: str, now: int) -> Observation:
        request = self._holding(k, item_id, now)
        self.now = now
        self._failed(request, error, now)
        return "ok"

    def _release(self, k: int, now: int) -> Observation:
        lease = self._live(k, now)
        self.now = now
        for request in self._held(lease):
            request.status, request.lease, request.ready_at = "queued", None, now
            request.attempts -= 1
        return "ok"

    def _expire(self, now: int) -> Observation:
        self._time(now)
        self.now = now
        return expired(*self._expire_due(now))

    def _item(self, item_id: Hashable) -> Observation:
        _refuse_if(item_id not in self.requests)
        r = self.requests[item_id]
        status = r.status
        if status == "queued":
            status = "ready" if self.now is None or r.ready_at <= self.now else "waiting"
        return state(status, r.attempts, r.result, r.error)


def model(script: Session) -> tuple[Observation, ...]:
    oracle = Model.of(script)
    return tuple(oracle.step(step) for step in script.steps)


# --- the cost of a claim ----------------------------------------------------------------------

CLAIMS = 40  # measured, at n and at 8n queued requests


def per_claim(impl: Module) -> Callable[[int], float]:
    """Lines per round with n requests queued: claim one, complete it, submit another."""

    def measure(count: int) -> float:
        queue = impl.require("Queue")(
            lease_ticks=10**9, max_attempts=3, base=1, cap=1, rng=Random(1)
        )
        for i in range(count):
            queue.submit(i, now=0)

        def rounds() -> None:
            for i in range(CLAIMS):
                lease = queue.claim("w", now=1, limit=1)
                queue.complete(lease.id, lease.items[0], "done", now=1)
                queue.submit(count + i, now=1)

        return work(rounds) / CLAIMS

    return measure


def cost(n: int, limit: float) -> Question:
    return cost_question(
        f"{CLAIMS} rounds of claim(limit=1), complete, submit with {n}, then {8 * n} "
        "requests queued",
        per_claim,
        n,
        limit=limit,
        unit="claim",
    )


def per_claim_among_leases(impl: Module) -> Callable[[int], float]:
    """Lines per round with n live leases outstanding (none due): claim one, complete it."""

    def measure(count: int) -> float:
        queue = impl.require("Queue")(
            lease_ticks=10**9, max_attempts=3, base=1, cap=1, rng=Random(1)
        )
        for i in range(count + CLAIMS):
            queue.submit(i, now=0)
        for _ in range(count):
            queue.claim("w", now=0, limit=1)

        def rounds() -> None:
            for _ in range(CLAIMS):
                lease = queue.claim("v", now=1, limit=1)
                queue.complete(lease.id, lease.items[0], "done", now=1)

        return work(rounds) / CLAIMS

    return measure


def cost_among_leases(n: int, limit: float) -> Question:
    return cost_question(
        f"{CLAIMS} rounds of claim(limit=1) and complete with {n}, then {8 * n} live leases "
        "outstanding, none due",
        per_claim_among_leases,
        n,
        limit=limit,
        unit="claim",
    )
