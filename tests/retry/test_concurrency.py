"""Real threads racing on one key: the operation runs once, whatever the interleaving."""

from __future__ import annotations

import pytest

from kata.checks import expect
from kata.impl import Implementation
from tests.support.retrying import duplicate_while_running, racing_threads

pytestmark = pytest.mark.retry_concurrency

RULE = (
    "however requests with one key interleave across threads, the operation runs at most "
    "once per time to live: mark the key as running, under a lock, before running it, and "
    "refuse a duplicate with InProgress while it runs (without holding the lock, so other "
    "keys and the refusal are not blocked)."
)


@pytest.mark.rules(20, 22)
def test_a_duplicate_while_the_first_runs_is_refused_not_run(impl: Implementation) -> None:
    expect(
        impl,
        duplicate_while_running(),
        (("first",), ("refused: in progress",), ("done",)),
        rule=RULE,
    )


@pytest.mark.rules(22)
def test_threads_racing_on_a_key_run_its_operation_once(impl: Implementation) -> None:
    expect(impl, racing_threads(), ("once", ()), rule=RULE)
