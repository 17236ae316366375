"""The monitor's cost: a beat O(1), a check O(1 + ranks reported), amortized.

Measured two ways (kata/cost.py), in a job where nobody is
reported.  Counted, at n ranks and at 8n: the Python lines a beat and a
check execute, ranks beating in shuffled orders (seeded), must stay level
within x2.  Timed, at n ranks and at 64n: the CPU time of a beat (ranks
beating in a seeded random order) and of a check of a warm monitor, the
least of several tries, must stay level within x3; the CPU clock sees the
work done in C that no count sees (a copy of every rank, a `list.remove`),
which grows fifty-fold and more.  Neither depends on the machine or its load.
"""

from __future__ import annotations

import pytest

from kata.checks import expect
from kata.cost import CPU_US, GROWTH, TIMED_GROWTH, TIMED_LEVEL, Growth
from kata.impl import Implementation
from tests.support.detecting import MonitorWorkload, monitor_cost_question, monitor_timed_question

pytestmark = [pytest.mark.monitor_cost, pytest.mark.rules(13)]

RANKS, ROUNDS = 32, 3
RULE = (
    "a beat costs O(1) and a check O(1 + ranks reported), amortized: never a scan of every "
    "rank. Keep ranks in the order they were last heard (an ordered dict moved to the end on "
    "each beat, or a queue of receipts whose stale entries are dropped as they are met), and "
    "stop at the first rank within the timeout."
)


WORKLOADS = {
    "startup": MonitorWorkload(
        "startup",
        f"HeartbeatMonitor(n, timeout=20n): every rank beats for the first time, in a shuffled "
        f"order, each beat followed by stopped(); n = {RANKS}, then {GROWTH * RANKS}",
        ranks=RANKS,
        rounds=1,
        warm=False,
    ),
    "steady": MonitorWorkload(
        "steady",
        f"HeartbeatMonitor(n, timeout={10 * (ROUNDS + 1)}n): every rank has beaten; {ROUNDS} "
        f"rounds of beats in shuffled orders, each beat followed by stopped(); n = {RANKS}, "
        f"then {GROWTH * RANKS}",
        ranks=RANKS,
        rounds=ROUNDS,
        warm=True,
    ),
    "one never heard": MonitorWorkload(
        "one never heard",
        f"HeartbeatMonitor(n, timeout={10 * (ROUNDS + 1)}n), running past its timeout: rank 0 "
        f"never heard, every other rank has beaten; {ROUNDS} rounds of beats in shuffled "
        f"orders, each beat followed by stopped() (which reports rank 0); n = {RANKS}, then "
        f"{GROWTH * RANKS}",
        ranks=RANKS,
        rounds=ROUNDS,
        warm=True,
        silent=1,
    ),
}
LEVEL_ANSWER = (Growth(level=True, unit="beat"), Growth(level=True, unit="check"))


@pytest.mark.parametrize("operation", ["beat", "check"])
def test_beats_and_checks_take_the_same_time_at_any_world_size(
    impl: Implementation, operation: str
) -> None:
    """The CPU clock sees what a count cannot: work done in C (a copy of every rank, a
    `list.remove`) grows fifty-fold and more with sixty-four times the ranks."""
    expect(
        impl,
        monitor_timed_question(operation),
        Growth(level=True, limit=TIMED_LEVEL, unit=operation, measure=CPU_US, factor=TIMED_GROWTH),
        rule=RULE,
    )


@pytest.mark.parametrize("workload", WORKLOADS)
def test_beats_and_checks_cost_the_same_at_any_world_size(
    impl: Implementation, workload: str
) -> None:
    """A check walks only the ranks it reports; a beat touches one rank."""
    expect(impl, monitor_cost_question(WORKLOADS[workload]), LEVEL_ANSWER, rule=RULE)
