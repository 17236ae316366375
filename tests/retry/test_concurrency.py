"""Real threads racing on one key: the operation runs once, whatever the interleaving."""

from __future__ import annotations

import sys
import threading
from collections import Counter
from typing import Any

import pytest

from tests.support.checks import expect
from tests.support.impl import Implementation
from tests.support.outcomes import Question

pytestmark = pytest.mark.retry_concurrency

RULE = (
    "however requests with one key interleave across threads, the operation runs at most "
    "once per time to live: mark the key as running, under a lock, before running it, and "
    "refuse a duplicate with InProgress while it runs (without holding the lock, so other "
    "keys and the refusal are not blocked)."
)
WAIT = 5.0  # seconds a thread waits for another before the test gives up on it


def duplicate_while_running() -> Question:
    """Thread A's operation is running (held on an event); thread B sends the same request."""

    def ask(impl: Implementation) -> tuple[Any, ...]:
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

    return Question(
        "store = IdempotencyStore(1000, clock=...); thread A: store.execute('k', 'p', an "
        "operation held running); while it runs, thread B: store.execute('k', 'p', ...)",
        ask,
        lambda answer: (
            f"operations run: {answer[0]}; B got {answer[1]}; A got {answer[2]}"
            if len(answer) == 3
            else str(answer[0])
        ),
    )


def racing_threads(keys: int = 150, threads: int = 6) -> Question:
    """For each key, `threads` threads released together by a barrier send the same request."""

    def ask(impl: Implementation) -> tuple[Any, ...]:
        made = impl.require("IdempotencyStore")(1_000, clock=lambda: 0)
        in_progress = impl.type_named("InProgress")
        runs: Counter[int] = Counter()
        lock = threading.Lock()
        endings: Counter[str] = Counter()

        def operation(key: int) -> int:
            with lock:
                runs[key] += 1
            return key

        def request(key: int, barrier: threading.Barrier) -> None:
            barrier.wait(WAIT)
            try:
                got = made.execute(f"key-{key}", "p", lambda: operation(key))
                ending = "returned the key's result" if got == key else "returned something else"
            except in_progress:
                ending = "refused: in progress"
            with lock:
                endings[ending] += 1

        switch = sys.getswitchinterval()
        sys.setswitchinterval(1e-6)  # switch threads as often as possible: races show
        try:
            for key in range(keys):
                barrier = threading.Barrier(threads)
                workers = [
                    threading.Thread(target=request, args=(key, barrier), daemon=True)
                    for _ in range(threads)
                ]
                for worker in workers:
                    worker.start()
                for worker in workers:
                    worker.join(WAIT)
        finally:
            sys.setswitchinterval(switch)
        # Only what holds whatever the timing: whether any key ran twice, and what else
        # (beyond a result or a refusal, which of the two being timing's choice) was seen.
        twice = (
            "some key's operation ran more than once"
            if max(runs.values(), default=0) > 1
            else "once"
        )
        allowed = {"refused: in progress", "returned the key's result"}
        return (twice, tuple(sorted(set(endings) - allowed)))

    return Question(
        f"for each of {keys} keys, {threads} threads released together call "
        "store.execute(key, 'p', operation)",
        ask,
        lambda answer: (
            f"the most runs of one key's operation: {answer[0]}; the requests {list(answer[1])}"
        ),
    )


def test_a_duplicate_while_the_first_runs_is_refused_not_run(impl: Implementation) -> None:
    expect(
        impl,
        duplicate_while_running(),
        (("first",), ("refused: in progress",), ("done",)),
        rule=RULE,
    )


def test_threads_racing_on_a_key_run_its_operation_once(impl: Implementation) -> None:
    expect(impl, racing_threads(), ("once", ()), rule=RULE)
