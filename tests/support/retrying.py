"""The retry exercise from the tests' side: questions for each part of the contract.

Backoff and jitter are asked one call at a time, or as draws from one seeded
generator.  `call_with_retries` is asked a `Script`: what each attempt of a
fake call does, on a fake clock whose `sleep` advances it; the answer is an
`Observed` record of everything visible (calls, sleeps, what was raised and
its history).  `RetryBudget` and `IdempotencyStore` are asked sequences of
steps.  Types a candidate may define (Failure, Policy, InProgress) are
taken from the candidate's module when it has them.
"""

from __future__ import annotations

import sys
import sysconfig
import threading
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import partial
from pathlib import Path
from random import Random
from typing import Any, NamedTuple

from kata.impl import Module
from kata.outcomes import HARNESS, Question, ShapeError, brief, shown_list


def _int(value: Any, what: str) -> int:
    if type(value) is not int:
        raise ShapeError(
            f"{what} must be an int of ticks, got a {type(value).__name__}", brief(value)
        )
    return value


# --- backoff ---------------------------------------------------------------------------


def _arguments(name: str, step: int, base: int, cap: int) -> str:
    first = f"previous={step}" if name == "decorrelated_jitter" else f"{step}"
    return f"{first}, base={base}, cap={cap}"


def backoff(name: str, step: int, *, base: int, cap: int, seed: int | None = None) -> Question:
    """One call: ``name(step, base=, cap=)`` (step is `previous` for decorrelated_jitter)."""
    rng = "" if seed is None else f", rng=Random({seed})"

    return Question(
        f"{name}({_arguments(name, step, base, cap)}{rng})",
        partial(_ask_backoff, name, step, base, cap, seed),
        str,
    )


def _ask_backoff(name: str, step: int, base: int, cap: int, seed: int | None, impl: Module) -> int:
    function = impl.require(name)
    extra = {} if seed is None else {"rng": Random(seed)}
    return _int(function(step, base=base, cap=cap, **extra), name)


def draws(name: str, step: int, *, base: int, cap: int, seed: int, count: int) -> Question:
    """`count` calls sharing one ``Random(seed)``: the waits drawn, in order."""
    text = (
        f"rng = Random({seed}); [{name}({_arguments(name, step, base, cap)}, rng=rng) "
        f"for _ in range({count})]"
    )
    return Question(text, partial(_ask_draws, name, step, base, cap, seed, count), _summary)


def _ask_draws(
    name: str, step: int, base: int, cap: int, seed: int, count: int, impl: Module
) -> tuple[int, ...]:
    function, rng = impl.require(name), Random(seed)
    return tuple(_int(function(step, base=base, cap=cap, rng=rng), name) for _ in range(count))


def chain(*, base: int, cap: int, seed: int, count: int) -> Question:
    """Decorrelated jitter as a client uses it: each wait fed back as the next previous."""
    text = (
        f"rng, wait = Random({seed}), {base}; for {count} retries: wait = "
        f"decorrelated_jitter(wait, base={base}, cap={cap}, rng=rng)"
    )
    return Question(text, partial(_ask_chain, base, cap, seed, count), _summary)


def _ask_chain(base: int, cap: int, seed: int, count: int, impl: Module) -> tuple[int, ...]:
    function, rng = impl.require("decorrelated_jitter"), Random(seed)
    waits, previous = [], base
    for _ in range(count):
        previous = _int(function(previous, base=base, cap=cap, rng=rng), "decorrelated_jitter")
        waits.append(previous)
    return tuple(waits)


def _summary(values: Sequence[int]) -> str:
    if len(values) <= 12:
        return shown_list(values, str)
    mean = Fraction(sum(values), len(values))
    return (
        f"{len(values)} values from {min(values)} to {max(values)}, mean {float(mean):.2f}: "
        f"{shown_list(values[:8], str)[:-1]}, ...]"
    )


# --- call_with_retries ----------------------------------------------------------------------

OK = ("ok", "done")


class Observed(NamedTuple):
    """Everything a caller of call_with_retries can see."""

    ended: str  # "returned", "raised the last failure", "raised another failure", "passed a bug"
    value: Any  # what it returned
    calls: tuple[int, ...]  # the clock when each attempt began
    sleeps: tuple[int, ...]
    gave_up: str | None
    attempts: tuple[
        tuple[int, int, int | None, int], ...
    ]  # (number, started_at, failure #, waited)
    budget: tuple[Fraction, ...] = ()  # the budget's tokens at the end, if one was given

    def __str__(self) -> str:
        parts = [self.ended + (f" {self.value!r}" if self.ended == "returned" else "")]
        parts.append(
            f"after {len(self.calls)} calls at {list(self.calls)}, sleeping {list(self.sleeps)}"
        )
        if self.gave_up is not None:
            parts.append(f"gave_up={self.gave_up!r}, attempts={list(self.attempts)}")
        if self.budget:
            parts.append(f"budget tokens {self.budget[0]}")
        return "; ".join(parts)


@dataclass(frozen=True)
class Script:
    """A call whose attempts go as `outcomes` (the last repeats), and the policy asked of it.

    An outcome is ``("ok", value)``, ``("bug",)`` (a RuntimeError, not a Failure), or
    ``(kind, status, retry_after)`` for a Failure.
    """

    outcomes: tuple[tuple[Any, ...], ...]
    method: str = "GET"
    key: str | None = None
    max_attempts: int = 3
    deadline: int = 100_000
    base: int = 10
    cap: int = 1_000
    max_retry_after: int = 500
    duration: int = 0  # ticks each attempt takes
    budget: tuple[int, Fraction] | None = None  # (max_tokens, token_ratio)
    spent: int = 0  # failures recorded in the budget before the call
    seed: int = 1
    start: int = 1_000  # the clock when the call begins

    def policy(self) -> dict[str, int]:
        return {
            "max_attempts": self.max_attempts,
            "deadline": self.deadline,
            "base": self.base,
            "cap": self.cap,
            "max_retry_after": self.max_retry_after,
        }

    def __str__(self) -> str:
        policy = ", ".join(f"{k}={v}" for k, v in self.policy().items())
        extra = f", idempotency_key={self.key!r}" if self.key is not None else ""
        budget = ""
        if self.budget:
            budget = f", budget=RetryBudget({self.budget[0]}, {self.budget[1]})"
            budget += f" after {self.spent} failures recorded" if self.spent else ""
        outcomes = ", ".join(_shown(o) for o in self.outcomes) + " (the last repeats)"
        return (
            f"call_with_retries(call, method={self.method!r}{extra}, policy=Policy({policy}), "
            f"clock=clock, sleep=sleep, rng=Random({self.seed}){budget})\n"
            f"    where the clock starts at {self.start}, sleep(t) advances it by t, each attempt "
            f"takes {self.duration} ticks, and the attempts go: {outcomes}"
        )


def _shown(outcome: tuple[Any, ...]) -> str:
    if outcome[0] == "ok":
        return f"returns {outcome[1]!r}"
    if outcome[0] == "bug":
        return "raises RuntimeError (a bug, not a Failure)"
    kind, status, retry_after = outcome
    shown = f"Failure({kind!r}" + (f", status={status}" if status is not None else "")
    return shown + (f", retry_after={retry_after})" if retry_after is not None else ")")


def failure(
    kind: str, status: int | None = None, retry_after: int | None = None
) -> tuple[Any, ...]:
    return (kind, status, retry_after)


def retries(script: Script) -> Question:

    return Question(str(script), partial(_ask_retries, script), str)


def _ask_retries(script: Script, impl: Module) -> Observed:
    failure_type = impl.type_named("Failure")
    clock, calls, sleeps, raised = [script.start], list[int](), list[int](), list[Any]()

    def sleep(ticks: int) -> None:
        sleeps.append(ticks)
        clock[0] += ticks

    def call() -> Any:
        outcome = script.outcomes[min(len(calls), len(script.outcomes) - 1)]
        calls.append(clock[0])
        clock[0] += script.duration
        if outcome[0] == "ok":
            return outcome[1]
        if outcome[0] == "bug":
            raise RuntimeError("a bug in the call itself")
        kind, status, retry_after = outcome
        raised.append(failure_type(kind, status=status, retry_after=retry_after))
        raise raised[-1]

    budget = None
    if script.budget is not None:
        budget = impl.require("RetryBudget")(*script.budget)
        for _ in range(script.spent):
            budget.record(success=False)
    arguments: dict[str, Any] = {
        "method": script.method,
        "policy": impl.record("Policy", **script.policy()),
        "clock": lambda: clock[0],
        "sleep": sleep,
        "rng": Random(script.seed),
    }
    if script.key is not None:
        arguments["idempotency_key"] = script.key
    if budget is not None:
        arguments["budget"] = budget
    function = impl.require("call_with_retries")
    try:
        value = function(call, **arguments)
    except RuntimeError as error:
        if str(error) != "a bug in the call itself":
            raise
        tokens = () if budget is None else (Fraction(budget.tokens),)
        return Observed(
            "passed the bug through", None, tuple(calls), tuple(sleeps), None, (), tokens
        )
    except failure_type as error:
        tokens = () if budget is None else (Fraction(budget.tokens),)
        ended = (
            "raised the last failure"
            if raised and error is raised[-1]
            else "raised another failure"
        )
        return Observed(
            ended,
            None,
            tuple(calls),
            tuple(sleeps),
            getattr(error, "gave_up", None),
            _history(getattr(error, "attempts", None), raised),
            tokens,
        )
    tokens = () if budget is None else (Fraction(budget.tokens),)
    return Observed("returned", value, tuple(calls), tuple(sleeps), None, (), tokens)


def waits_and_jitter(script: Script) -> Question:
    """call_with_retries' sleeps, beside full_jitter(1), full_jitter(2), ... drawn from one
    Random(seed): what rule 10 says the waits are (every failure without a Retry-After)."""
    return Question(
        f"{script}\n    beside: rng = Random({script.seed}); [full_jitter(n, base={script.base}, "
        f"cap={script.cap}, rng=rng) for n in 1, 2, ...]",
        partial(_ask_waits_and_jitter, script),
        lambda answer: f"slept {list(answer[0])}; full_jitter drew {list(answer[1])}",
    )


def _ask_waits_and_jitter(script: Script, impl: Module) -> tuple[tuple[int, ...], ...]:
    seen = _ask_retries(script, impl)
    jitter, rng = impl.require("full_jitter"), Random(script.seed)
    drawn = [
        jitter(n, base=script.base, cap=script.cap, rng=rng) for n in range(1, 1 + len(seen.sleeps))
    ]
    return tuple(seen.sleeps), tuple(drawn)


def _history(attempts: Any, raised: list[Any]) -> tuple[tuple[int, int, int | None, int], ...]:
    """The attempts as (number, started_at, which failure (1-based) or None, waited)."""
    if not isinstance(attempts, tuple | list):
        raise ShapeError("failure.attempts must be the tuple of attempts", brief(attempts))
    history = []
    for attempt in attempts:
        try:
            which = next(
                (i + 1 for i, f in enumerate(raised) if f is attempt.failure),
                None if attempt.failure is None else -1,
            )
            history.append((attempt.number, attempt.started_at, which, attempt.waited))
        except AttributeError as error:
            raise ShapeError(
                f"an Attempt needs number, started_at, failure, waited: {error}", brief(attempt)
            ) from None
    return tuple(history)


def classify(name: str, *arguments: Any) -> Question:
    """is_retryable(Failure(...)) or is_safe_to_repeat(method, key)."""
    shown = _shown(arguments) if name == "is_retryable" else ", ".join(map(repr, arguments))
    return Question(f"{name}({shown})", partial(_ask_classify, name, arguments), repr)


def _ask_classify(name: str, arguments: tuple[Any, ...], impl: Module) -> bool:
    function = impl.require(name)
    if name == "is_retryable":
        kind, status, retry_after = arguments
        result = function(impl.type_named("Failure")(kind, status=status, retry_after=retry_after))
    else:
        result = function(*arguments)
    if not isinstance(result, bool):
        raise ShapeError(f"{name} must return a bool", brief(result))
    return result


def construct(name: str, *arguments: object) -> Question:
    """``name(*arguments)`` (with a clock for IdempotencyStore): constructed, or what it raised."""
    shown = ", ".join(map(repr, arguments)) + (", clock=..." if name == "IdempotencyStore" else "")
    return Question(f"{name}({shown})", partial(_ask_construct, name, arguments), str)


def _ask_construct(name: str, arguments: tuple[object, ...], impl: Module) -> str:
    if name == "IdempotencyStore":
        impl.require(name)(*arguments, clock=lambda: 0)
    else:
        impl.require(name)(*arguments)
    return "constructed"


# --- RetryBudget ---------------------------------------------------------------------------------


def budget(max_tokens: int, ratio: Fraction | int | float, steps: str) -> Question:
    """RetryBudget(max_tokens, ratio), then `steps` ('s' a success, 'f' a failure); after
    each: (tokens, allows_retry())."""
    shown = " ".join("record(success=True)" if s == "s" else "record(success=False)" for s in steps)
    return Question(
        f"RetryBudget({max_tokens}, {ratio!r}), then: {shown or 'nothing'}; after each, "
        "(tokens, allows_retry())",
        partial(_ask_budget, max_tokens, ratio, steps),
        lambda states: ", ".join(f"({t}, {a})" for t, a in states),
    )


def _ask_budget(
    max_tokens: int, ratio: Fraction | int | float, steps: str, impl: Module
) -> tuple[tuple[Fraction, bool], ...]:
    made = impl.require("RetryBudget")(max_tokens, ratio)
    states = [(Fraction(made.tokens), made.allows_retry())]
    for step in steps:
        made.record(success=step == "s")
        states.append((Fraction(made.tokens), made.allows_retry()))
    for _, allows in states:
        if not isinstance(allows, bool):
            raise ShapeError("allows_retry() must return a bool", brief(allows))
    return tuple(states)


# --- IdempotencyStore -----------------------------------------------------------------------

Step = tuple[Any, ...]
# ("execute", key, params, returns)   the operation returns `returns`
# ("fail", key, params, message)      the operation raises RuntimeError(message)
# ("nested", key, params, inner_params)  the operation, while running, executes the same key
# ("slow", key, params, ticks)        the operation takes `ticks` of the clock, then returns "done"
# ("interrupt", key, params, None)    the operation is interrupted: it raises Interrupted
# ("advance", ticks)


class Interrupted(BaseException):
    """Not an Exception, as KeyboardInterrupt is not: an operation stopped, not an outcome."""


def store(ttl: int, steps: Sequence[Step], *, start: int = 500) -> Question:
    """IdempotencyStore(ttl, clock=clock), then `steps`; each step's outcome and the runs."""
    shown = "; ".join(_step(step) for step in steps)
    return Question(
        f"store = IdempotencyStore({ttl}, clock=clock) with the clock at {start}; {shown}",
        partial(_ask_store, ttl, steps, start),
        lambda answer: f"outcomes {list(answer[0])}; operations run for keys {list(answer[1])}",
    )


def _ask_store(ttl: int, steps: Sequence[Step], start: int, impl: Module) -> tuple[Any, ...]:
    clock, runs = [start], list[str]()
    made = impl.require("IdempotencyStore")(ttl, clock=lambda: clock[0])
    in_progress = impl.type_named("InProgress")
    errors: list[BaseException] = []
    outcomes: list[Any] = []

    def outcome_of(thunk: Callable[[], Any]) -> Any:
        try:
            return ("returned", thunk())
        except in_progress:
            return ("refused: in progress",)
        except Interrupted:
            return ("interrupted",)
        except ValueError:
            return ("ValueError",)
        except RuntimeError as error:
            seen = next((i + 1 for i, e in enumerate(errors) if e is error), None)
            if seen is None:
                errors.append(error)
                seen = len(errors)
            return ("raised", str(error), f"exception #{seen}")

    for step in steps:
        if step[0] == "advance":
            clock[0] += step[1]
            continue
        kind, key, params, detail = step

        def operation(kind: str = kind, key: str = key, detail: Any = detail) -> Any:
            runs.append(key)
            if kind == "fail":
                raise RuntimeError(detail)
            if kind == "interrupt":
                raise Interrupted
            if kind == "nested":
                return (
                    "while running",
                    outcome_of(lambda: made.execute(key, detail, lambda: "inner")),
                )
            if kind == "slow":
                clock[0] += detail
                return "done"
            return detail

        outcomes.append(outcome_of(partial(made.execute, key, params, operation)))
    return (tuple(outcomes), tuple(runs))


def _step(step: Step) -> str:
    if step[0] == "advance":
        return f"clock advances {step[1]}"
    kind, key, params, detail = step
    what = {
        "execute": f"returns {detail!r}",
        "fail": f"raises RuntimeError({detail!r})",
        "nested": f"calls store.execute({key!r}, {detail!r}, ...) while running",
        "slow": f"takes {detail} ticks, then returns 'done'",
        "interrupt": "is interrupted (raises a BaseException, as KeyboardInterrupt)",
    }[kind]
    return f"store.execute({key!r}, {params!r}, operation that {what})"


# --- many calls sharing one budget and one clock ------------------------------------------------

RETRYABLE = frozenset({408, 429, 500, 502, 503, 504})
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS", "PUT", "DELETE"})


@dataclass(frozen=True)
class Campaign:
    """Calls made one after another through one RetryBudget, on one clock."""

    max_tokens: int
    ratio: Fraction
    calls: tuple[Script, ...] = ()

    def then(self, script: Script) -> Campaign:
        return Campaign(self.max_tokens, self.ratio, (*self.calls, script))

    def __str__(self) -> str:
        lines = [f"budget = RetryBudget({self.max_tokens}, {self.ratio}); one clock from 1000"]
        lines += [f"  call {i + 1}: {script}" for i, script in enumerate(self.calls)]
        return "\n".join(lines)


def campaign(plan: Campaign) -> Question:
    """Per call: how it ended, attempts made, gave_up, the clock and the tokens after it."""
    return Question(
        str(plan), partial(_ask_campaign, plan), lambda calls: "; ".join(map(str, calls))
    )


def _ask_campaign(plan: Campaign, impl: Module) -> tuple[Any, ...]:
    failure_type = impl.type_named("Failure")
    shared = impl.require("RetryBudget")(plan.max_tokens, plan.ratio)
    function, clock, seen = impl.require("call_with_retries"), [1_000], []
    for script in plan.calls:
        made = [0]

        def call(script: Script = script, made: list[int] = made) -> Any:
            outcome = script.outcomes[min(made[0], len(script.outcomes) - 1)]
            made[0] += 1
            clock[0] += script.duration
            if outcome[0] == "ok":
                return outcome[1]
            kind, status, retry_after = outcome
            raise failure_type(kind, status=status, retry_after=retry_after)

        def sleep(ticks: int) -> None:
            clock[0] += ticks

        try:
            function(
                call,
                method=script.method,
                policy=impl.record("Policy", **script.policy()),
                clock=lambda: clock[0],
                sleep=sleep,
                rng=Random(script.seed),
                budget=shared,
            )
            ending, reason = "returned", None
        except failure_type as error:
            ending, reason = "raised", getattr(error, "gave_up", None)
        seen.append((ending, made[0], reason, clock[0], Fraction(shared.tokens)))
    return tuple(seen)


def campaign_model(plan: Campaign) -> tuple[Any, ...]:
    """The contract's decision procedure, read literally (every failure carries a Retry-After)."""
    clock, tokens, seen = 1_000, Fraction(plan.max_tokens), []
    for script in plan.calls:
        start, made, ending, reason = clock, 0, "", None
        while not ending:
            outcome = script.outcomes[min(made, len(script.outcomes) - 1)]
            made += 1
            clock += script.duration
            if outcome[0] == "ok":
                tokens = min(Fraction(plan.max_tokens), tokens + plan.ratio)
                ending = "returned"
                continue
            kind, status, retry_after = outcome
            reason = ""
            if kind == "status" and status not in RETRYABLE:
                reason = "not retryable"
            else:
                tokens = max(Fraction(0), tokens - 1)
                wait = min(retry_after, script.max_retry_after)
                if script.method not in SAFE_METHODS and script.key is None:
                    reason = "not safe to repeat"
                elif made >= script.max_attempts:
                    reason = "attempts"
                elif not tokens > Fraction(plan.max_tokens, 2):
                    reason = "budget"
                elif clock + wait >= start + script.deadline:
                    reason = "deadline"
                else:
                    clock += wait
            if reason:
                ending = "raised"
        seen.append((ending, made, reason or None, clock, tokens))
    return tuple(seen)


# --- racing threads -------------------------------------------------------------------------

WAIT = 5.0  # seconds a thread waits for another before the test gives up on it


def duplicate_while_running() -> Question:
    """Thread A's operation is running (held on an event); thread B sends the same request."""
    return Question(
        "store = IdempotencyStore(1000, clock=...); thread A: store.execute('k', 'p', an "
        "operation held running); while it runs, thread B: store.execute('k', 'p', ...)",
        _ask_duplicate_while_running,
        lambda answer: (
            f"operations run: {answer[0]}; B got {answer[1]}; A got {answer[2]}"
            if len(answer) == 3
            else str(answer[0])
        ),
    )


def _ask_duplicate_while_running(impl: Module) -> tuple[Any, ...]:
    made = impl.require("IdempotencyStore")(1_000, clock=lambda: 0)
    in_progress = impl.type_named("InProgress")
    running, release, runs, first = threading.Event(), threading.Event(), [], []

    def slow() -> str:
        runs.append("first")
        running.set()
        release.wait(WAIT)
        return "done"

    def request_a() -> None:
        first.append(made.execute("k", "p", slow))

    thread = threading.Thread(target=request_a, daemon=True)
    thread.start()
    try:
        if not running.wait(WAIT):
            return ("the first request never ran its operation",)

        def duplicate() -> str:
            runs.append("second")
            return "dup"

        try:
            second: Any = ("returned", made.execute("k", "p", duplicate))
        except in_progress:
            second = ("refused: in progress",)
    finally:
        release.set()
        thread.join(WAIT)
    return (tuple(runs), second, tuple(first))


def racing_threads(rounds: int = 2) -> Question:
    """Two threads send one request each for one key, in lockstep (`Lockstep`): each takes
    one line of the module's code in turn, so a check and its act are always interleaved
    with the other thread's.  Each thread in turn goes first."""
    return Question(
        f"{rounds} rounds: two threads call store.execute(key, 'p', operation) for one key, "
        "each running one line of your code in turn (lockstep)",
        partial(_ask_racing_threads, rounds),
        lambda answer: (
            f"the most runs of one key's operation: {answer[0]}; the requests {list(answer[1])}"
        ),
    )


def _ask_racing_threads(rounds: int, impl: Module) -> tuple[Any, ...]:
    made = impl.require("IdempotencyStore")(1_000, clock=lambda: 0)
    in_progress = impl.type_named("InProgress")
    runs: Counter[int] = Counter()
    endings: Counter[str] = Counter()
    lock = threading.Lock()

    def request(key: int) -> None:
        def operation() -> int:
            with lock:
                runs[key] += 1
            return key

        try:
            got = made.execute(f"key-{key}", "p", operation)
            ending = "returned the key's result" if got == key else "returned something else"
        except in_progress:
            ending = "refused: in progress"
        with lock:
            endings[ending] += 1

    for key in range(rounds):
        Lockstep(first=key % 2).run([partial(request, key), partial(request, key)])
    # Only what holds whatever the order: whether any key ran twice, and what else
    # (beyond a result or a refusal, which of the two being the order's choice) was seen.
    twice = (
        "some key's operation ran more than once" if max(runs.values(), default=0) > 1 else "once"
    )
    allowed = {"refused: in progress", "returned the key's result"}
    return (twice, tuple(sorted(set(endings) - allowed)))


class Lockstep:
    """Threads that take turns, one line of the module's code each.

    A tracer holds each thread, at every line of code outside the standard library
    and this harness, until it is that thread's turn; after its line the turn passes.
    Two threads running the same code thus check before either acts: a race between
    a check and its act happens every time, not by luck of timing.  A thread blocked
    in C (waiting for a lock) cannot take its turn: the other waits `patience` for it
    at each of its lines, then goes on, so a thread that is released (the lock freed)
    takes its turn before the other's next line.
    """

    def __init__(self, *, first: int = 0, patience: float = 0.05) -> None:
        self.turn, self.patience = first, patience
        self.done: set[int] = set()
        self.cond = threading.Condition()
        self.skip = (str(Path(sysconfig.get_paths()["stdlib"]).resolve()), str(HARNESS))

    def run(self, calls: Sequence[Callable[[], None]]) -> None:
        threads = [
            threading.Thread(target=self._traced, args=(me, call), daemon=True)
            for me, call in enumerate(calls)
        ]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(WAIT)

    def _traced(self, me: int, call: Callable[[], None]) -> None:
        sys.settrace(self._tracer(me))
        try:
            call()
        finally:
            sys.settrace(None)
            with self.cond:
                self.done.add(me)
                self.cond.notify_all()

    def _tracer(self, me: int) -> Callable[..., Any]:
        def local(frame: Any, event: str, arg: Any) -> Any:
            if event == "line":
                self._take_turn(me)
            return local

        def calls(frame: Any, event: str, arg: Any) -> Any:
            name = frame.f_code.co_filename
            return None if name.startswith(self.skip) or name.startswith("<") else local

        return calls

    def _take_turn(self, me: int) -> None:
        other = 1 - me
        with self.cond:
            self.cond.wait_for(lambda: self.turn == me or other in self.done, self.patience)
            self.turn = other
            self.cond.notify_all()
