"""The batcher exercise from the tests' side: a session of calls, its transcript, and a model.

A `Session` is a configuration and a list of steps (submit, cancel, poll,
complete, close, next_wakeup), each at a tick that never goes back.  Asked
of an implementation, it returns a `Transcript`: one observation per step,
in a normal form that any correct implementation gives, however written:

* a batch is its requests, listed in submission order (the order inside a
  batch is the implementation's own), and its padded tokens; batches are
  named by the order they were sent ("batch 2"), never by their ids;
* a completion is each request's ending: a result (the harness's model
  answers ``"out:<id>"`` for each request, in the order the batch lists
  them, so a result handed to the wrong caller shows), the batch's error,
  the request's own error, or a ValueError for a wrong count;
* QueueFull, Closed and ValueError are observations, not failures.

`model` computes the transcript the contract promises, from the contract's
words, with no cleverness: the oracle of the property and stateful tests.
"""

from __future__ import annotations

import itertools
from collections.abc import Hashable, Sequence
from dataclasses import dataclass, field, replace
from functools import partial
from typing import Any

from kata.impl import Implementation, Module
from kata.outcomes import Question, ShapeError, brief
from tests.support.sessions import Shown, Transcript, expect_transcript, play

Step = tuple[Any, ...]
Observation = Any

KINDS = frozenset({"result", "error", "cancelled", "timed out"})


# --- steps ----------------------------------------------------------------------------------


def submit(
    request_id: Hashable,
    now: int,
    *,
    tokens: int = 1,
    priority: int = 0,
    timeout: int | None = None,
) -> Step:
    return ("submit", request_id, now, tokens, priority, timeout)


def cancel(request_id: Hashable, now: int) -> Step:
    return ("cancel", request_id, now)


def poll(now: int) -> Step:
    return ("poll", now)


def complete(batch: int, now: int, how: Any = "results") -> Step:
    """Complete the `batch`-th batch sent (1 is the first).  `how`: "results" (one per
    request), "fails" (one exception for the batch), ("errors", ids) (those requests get
    their own exception), "too few" or "too many" results."""
    return ("complete", batch, now, how)


def close() -> Step:
    return ("close",)


def wakeup() -> Step:
    return ("wakeup",)


@dataclass(frozen=True)
class Session:
    config: tuple[tuple[str, Any], ...]  # Config's keyword arguments
    steps: tuple[Step, ...]

    @classmethod
    def of(cls, steps: Sequence[Step], **config: Any) -> Session:
        return cls(tuple(config.items()), tuple(steps))

    def then(self, *steps: Step) -> Session:
        return replace(self, steps=self.steps + steps)

    @property
    def settings(self) -> dict[str, Any]:
        return dict(self.config)

    def __str__(self) -> str:
        arguments = ", ".join(f"{k}={v!r}" for k, v in self.config)
        lines = [f"b = Batcher(Config({arguments}))"]
        lines += [f"{i:>3}. {call(step)}" for i, step in enumerate(self.steps, 1)]
        return "\n".join(lines)


def call(step: Step) -> str:
    """A step as the candidate's code would read."""
    kind = step[0]
    if kind == "submit":
        _, request_id, now, tokens, priority, timeout = step
        extra = "".join(
            f", {name}={value!r}"
            for name, value, default in (
                ("tokens", tokens, 1),
                ("priority", priority, 0),
                ("timeout", timeout, None),
            )
            if value != default
        )
        return f"b.submit(Request({request_id!r}{extra}), now={now})"
    if kind == "cancel":
        return f"b.cancel({step[1]!r}, now={step[2]})"
    if kind == "poll":
        return f"b.poll(now={step[1]})"
    if kind == "complete":
        _, batch, now, how = step
        each = f"[f'out:{{r}}' for r in <batch {batch}>.requests]"
        outcome = {
            "results": each,
            "fails": "RuntimeError('the model failed')",
            "too few": f"{each}[:-1]",
            "too many": f"{each} + ['out:extra']",
        }.get(how if isinstance(how, str) else "", "")
        if not outcome:
            outcome = f"{each}, with RuntimeError(...) in place for {list(how[1])}"
        return f"b.complete(<batch {batch}>.id, {outcome}, now={now})"
    if kind == "close":
        return "b.close()"
    return "b.next_wakeup()"


# --- observations, as tests write them --------------------------------------------------


def sends(*batches: tuple[Sequence[Hashable], int], timed_out: Sequence[Hashable] = ()) -> Any:
    """A poll's observation: each batch as (its ids in submission order, padded tokens)."""
    shown = tuple((tuple(ids), padded) for ids, padded in batches)
    return ("sends", shown, "times out", tuple(timed_out))


NOTHING = sends()


def result(request_id: Hashable) -> tuple[Any, ...]:
    return (request_id, "result", f"out:{request_id}")


def failed(request_id: Hashable, why: str) -> tuple[Any, ...]:
    """`why`: "the batch's error", "its own error" or "a ValueError"."""
    return (request_id, "error", why)


def cancelled(request_id: Hashable) -> tuple[Any, ...]:
    return (request_id, "cancelled", None)


def results(*request_ids: Hashable) -> tuple[tuple[Any, ...], ...]:
    return tuple(result(r) for r in request_ids)


def wakes(tick: int | None) -> Any:
    return ("wakes at", tick)


# --- asking ---------------------------------------------------------------------------------


def session(script: Session) -> Question:
    return Question(str(script), partial(_run, script), _shown(script).transcript)


def _run(script: Session, impl: Module) -> Transcript:
    batcher = impl.require("Batcher")(impl.record("Config", **script.settings))
    request_type, state = impl.type_named("Request"), _State()
    errors = {
        "QueueFull": impl.type_named("QueueFull"),
        "Closed": impl.type_named("Closed"),
        "ValueError": ValueError,
    }
    return play(impl, script.steps, lambda step: _step(batcher, request_type, state, step), errors)


def construction(config: dict[str, Any]) -> Question:
    """``Batcher(Config(**config))``: made, or what it raised."""
    arguments = ", ".join(f"{k}={v!r}" for k, v in config.items())
    return Question(f"Batcher(Config({arguments}))", partial(_ask_made, config))


def _ask_made(config: dict[str, Any], impl: Module) -> str:
    impl.require("Batcher")(impl.record("Config", **config))
    return "made"


@dataclass
class _State:
    order: dict[Hashable, int] = field(default_factory=dict)  # submission order of ids
    submitted: int = 0
    sent: list[Any] = field(default_factory=list)  # the batches, in the order sent
    failures: dict[Hashable, BaseException] = field(default_factory=dict)
    batch_failure: BaseException | None = None


def _step(batcher: Any, request_type: Any, state: _State, step: Step) -> Observation:
    kind = step[0]
    if kind == "submit":
        _, request_id, now, tokens, priority, timeout = step
        request = request_type(request_id, tokens=tokens, priority=priority, timeout=timeout)
        batcher.submit(request, now=now)
        state.order[request_id] = state.submitted
        state.submitted += 1
        return "queued"
    if kind == "cancel":
        ending = batcher.cancel(step[1], now=step[2])
        if ending is None:
            return "cancelled at completion"
        if _field(ending, "kind") != "cancelled" or _field(ending, "id") != step[1]:
            raise ShapeError(
                "cancel of a queued request returns its 'cancelled' Ending", brief(ending)
            )
        return "cancelled now"
    if kind == "poll":
        decision = batcher.poll(now=step[1])
        batches = _list(_field(decision, "batches"), "Decision.batches")
        ended = _list(_field(decision, "ended"), "Decision.ended")
        shown = []
        for batch in batches:
            batch_id = _field(batch, "id")
            if any(_field(b, "id") == batch_id for b in state.sent):
                raise ShapeError(f"batch id {batch_id!r} was already used", brief(batch))
            shown.append(
                (_members(state, _field(batch, "requests")), _field(batch, "padded_tokens"))
            )
            state.sent.append(batch)
        timed_out = []
        for ending in ended:
            if _field(ending, "kind") != "timed out":
                raise ShapeError("Decision.ended lists timed-out requests only", brief(ending))
            timed_out.append(_field(ending, "id"))
        return ("sends", tuple(shown), "times out", _members(state, timed_out))
    if kind == "complete":
        _, number, now, how = step
        if not 1 <= number <= len(state.sent):
            return f"no batch {number} to complete: only {len(state.sent)} sent"
        batch = state.sent[number - 1]
        requests = tuple(_field(batch, "requests"))
        outcome = _outcome(state, requests, how)
        endings = _list(batcher.complete(_field(batch, "id"), outcome, now=now), "endings")
        return _endings(state, requests, endings)
    if kind == "close":
        batcher.close()
        return "closed"
    wakeup = batcher.next_wakeup()
    if wakeup is not None and type(wakeup) is not int:
        raise ShapeError("next_wakeup() returns an int tick or None", brief(wakeup))
    return ("wakes at", wakeup)


def _outcome(state: _State, requests: tuple[Hashable, ...], how: Any) -> Any:
    results: list[Any] = [f"out:{r}" for r in requests]
    if how == "fails":
        state.batch_failure = RuntimeError("the model failed")
        return state.batch_failure
    if how == "too few":
        return results[:-1]
    if how == "too many":
        return [*results, "out:extra"]
    if how != "results":
        for i, request_id in enumerate(requests):
            if request_id in how[1]:
                state.failures[request_id] = RuntimeError(f"bad item {request_id!r}")
                results[i] = state.failures[request_id]
    return results


def _endings(state: _State, requests: tuple[Hashable, ...], endings: list[Any]) -> Observation:
    seen: dict[Hashable, Observation] = {}
    for ending in endings:
        request_id, kind, value = (_field(ending, n) for n in ("id", "kind", "value"))
        if kind not in KINDS:
            raise ShapeError(f"an Ending's kind is one of {sorted(KINDS)}", brief(ending))
        if request_id in seen:
            raise ShapeError(f"request {request_id!r} ended twice", brief(endings))
        if kind == "error":
            value = (
                "the batch's error"
                if value is state.batch_failure and value is not None
                else "its own error"
                if value is state.failures.get(request_id)
                else "a ValueError"
                if isinstance(value, ValueError)
                else f"a {type(value).__name__}"
            )
        elif kind != "result" and value is not None:
            # a cancelled or timed-out request has no value: a result kept here was not discarded
            value = f"carries {brief(value)}"
        seen[request_id] = (kind, value)
    if set(seen) != set(requests):
        raise ShapeError(
            f"complete() returns one Ending per request of the batch, {list(requests)}",
            brief(endings),
        )
    return tuple((r, *seen[r]) for r in _members(state, requests))


def _members(state: _State, ids: Any) -> tuple[Hashable, ...]:
    listed = tuple(ids)
    unknown = [i for i in listed if i not in state.order]
    if unknown:
        raise ShapeError(f"ids never submitted: {unknown}", brief(listed))
    return tuple(sorted(listed, key=state.order.__getitem__))


def _field(record: Any, name: str) -> Any:
    try:
        return getattr(record, name)
    except AttributeError:
        raise ShapeError(f"{type(record).__name__} has no field {name!r}", brief(record)) from None


def _list(value: Any, what: str) -> list[Any]:
    if not isinstance(value, list | tuple):
        raise ShapeError(f"{what} must be a list", brief(value))
    return list(value)


# --- showing ----------------------------------------------------------------------------------


def observed(observation: Observation) -> str:
    """One observation, as a line of the transcript."""
    if isinstance(observation, str):
        return observation
    if not observation:
        return "no endings"
    if observation[0] == "sends":
        _, batches, _, timed_out = observation
        parts = [
            f"sends {list(ids)} ({padded} padded token{'s' * (padded != 1)})"
            for ids, padded in batches
        ]
        if timed_out:
            parts.append(f"times out {list(timed_out)}")
        return "; ".join(parts) or "nothing"
    if observation[0] == "wakes at":
        return "None" if observation[1] is None else str(observation[1])
    return ", ".join(
        f"{r!r}: {kind}"
        + (f" {value}" if kind == "error" else f" {value!r}" if kind == "result" else "")
        for r, kind, value in observation
    )


def _shown(script: Session) -> Shown:
    arguments = ", ".join(f"{k}={v!r}" for k, v in script.config)
    return Shown(f"b = Batcher(Config({arguments}))", [call(s) for s in script.steps], observed)


def expect_session(
    impl: Implementation, script: Session, want: Sequence[Observation], *, rule: str
) -> None:
    """Fail unless the session's transcript is `want`; show the steps to the first difference."""
    expect_transcript(impl, session(script), _shown(script), want, rule=rule)


# --- the model ------------------------------------------------------------------------------


@dataclass
class _Queued:
    id: Hashable
    tokens: int
    priority: int
    timeout: int | None
    arrival: int
    order: int


class Model:
    """The contract, step by step, in its own words: brute force, no cleverness."""

    def __init__(self, **config: Any) -> None:
        self.size, self.wait = config["max_batch_size"], config["max_wait"]
        self.bound, self.slots = config["max_queue"], config.get("max_in_flight", 1)
        self.budget, self.ageing = config.get("token_budget"), config.get("ageing")
        self.edges: tuple[int, ...] = config.get("buckets", ())
        self.queue: list[_Queued] = []
        self.in_flight: dict[int, tuple[Hashable, ...]] = {}  # by the order sent, from 1
        self.sent = 0
        self.discarded: set[Hashable] = set()
        self.closed = False
        self.last: int | None = None
        self.rank: dict[Hashable, int] = {}  # each id's latest submission
        self.orders = itertools.count()

    def busy(self) -> set[Hashable]:
        """The ids queued or in flight."""
        return {q.id for q in self.queue} | {r for b in self.in_flight.values() for r in b}

    def step(self, step: Step) -> Observation:
        at = {"submit": 2, "cancel": 2, "poll": 1, "complete": 2}.get(step[0])  # its now
        if at is not None:
            if self.last is not None and step[at] < self.last:
                return "ValueError"  # time went back
            self.last = step[at]
        if step[0] == "submit":
            return self._submit(*step[1:])
        if step[0] == "cancel":
            return self._cancel(step[1])
        if step[0] == "poll":
            return self._poll(step[1])
        if step[0] == "complete":
            return self._complete(step[1], step[3])
        if step[0] == "close":
            self.closed = True
            return "closed"
        times = [q.arrival + q.timeout + 1 for q in self.queue if q.timeout is not None]
        if len(self.in_flight) < self.slots:
            times += [q.arrival + (0 if self.closed else self.wait) for q in self.queue]
        return ("wakes at", min(times, default=None))

    def _submit(
        self, request_id: Hashable, now: int, tokens: int, priority: int, timeout: int | None
    ) -> Observation:
        too_long = self.budget is not None and tokens > self.budget
        invalid = tokens < 1 or (timeout is not None and timeout < 0) or too_long
        if self.closed:
            return "Closed"
        if invalid or request_id in self.busy():
            return "ValueError"
        if len(self.queue) >= self.bound:
            return "QueueFull"
        self.rank[request_id] = next(self.orders)
        self.queue.append(
            _Queued(request_id, tokens, priority, timeout, now, self.rank[request_id])
        )
        return "queued"

    def _cancel(self, request_id: Hashable) -> Observation:
        if any(q.id == request_id for q in self.queue):
            self.queue = [q for q in self.queue if q.id != request_id]
            return "cancelled now"
        if any(request_id in batch for batch in self.in_flight.values()):
            self.discarded.add(request_id)
            return "cancelled at completion"
        return "ValueError"

    def _poll(self, now: int) -> Observation:
        expired = [q for q in self.queue if q.timeout is not None and now - q.arrival > q.timeout]
        self.queue = [q for q in self.queue if q not in expired]
        batches = []
        while len(self.in_flight) < self.slots:
            chosen = self._first_ready(now)
            if chosen is None:
                break
            self.queue = [q for q in self.queue if q not in chosen]
            self.sent += 1
            self.in_flight[self.sent] = tuple(q.id for q in chosen)
            padded = len(chosen) * max(q.tokens for q in chosen)
            batches.append((self._ordered([q.id for q in chosen]), padded))
        return ("sends", tuple(batches), "times out", self._ordered([q.id for q in expired]))

    def _first_ready(self, now: int) -> list[_Queued] | None:
        def aged(q: _Queued) -> bool:
            return self.ageing is not None and now - q.arrival >= self.ageing

        ranked = sorted(self.queue, key=lambda q: (not aged(q), -q.priority, q.order))
        for bucket in dict.fromkeys(self._bucket(q.tokens) for q in ranked):
            members = [q for q in ranked if self._bucket(q.tokens) == bucket]
            batch: list[_Queued] = []
            for q in members:
                if not self._fits(len(batch) + 1, max(x.tokens for x in [*batch, q])):
                    break
                batch.append(q)
            room = self._fits(len(batch) + 1, max(q.tokens for q in batch))
            full = len(batch) < len(members) or not room
            waited = any(now - q.arrival >= self.wait for q in members)
            if full or waited or self.closed:
                return batch
        return None

    def _complete(self, number: int, how: Any) -> Observation:
        if number not in self.in_flight:
            return "ValueError"
        ids = self.in_flight.pop(number)
        endings = []
        for request_id in self._ordered(ids):
            if request_id in self.discarded:
                endings.append(cancelled(request_id))
            elif how == "fails":
                endings.append(failed(request_id, "the batch's error"))
            elif how in ("too few", "too many"):
                endings.append(failed(request_id, "a ValueError"))
            elif how != "results" and request_id in how[1]:
                endings.append(failed(request_id, "its own error"))
            else:
                endings.append(result(request_id))
        self.discarded -= set(ids)
        return tuple(endings)

    def _bucket(self, tokens: int) -> int:
        return len([edge for edge in self.edges if tokens > edge])

    def _fits(self, count: int, longest: int) -> bool:
        return count <= self.size and (self.budget is None or count * longest <= self.budget)

    def _ordered(self, ids: Sequence[Hashable]) -> tuple[Hashable, ...]:
        return tuple(sorted(ids, key=self.rank.__getitem__))


def model(script: Session) -> tuple[Observation, ...]:
    """The contract's transcript of `script`."""
    oracle = Model(**script.settings)
    return tuple(oracle.step(step) for step in script.steps)


def expect_model(impl: Implementation, script: Session, *, rule: str) -> None:
    """The session's transcript is the model's."""
    expect_session(impl, script, model(script), rule=rule)
