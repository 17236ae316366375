"""The monitor's cost, counted: a beat O(1), a check O(1 + ranks reported), amortized.

Work is the Python lines executed (tests/support/cost.py), never time: the
verdict is the same on any machine.  Ranks and clock readings are `Counted`
ints, so comparisons done in C (``list.remove``, ``sorted``, ``min``) count
too.  A job of n ranks and one of 8n run the same workload, in which nobody
is reported, ranks beating in a shuffled order (seeded); the work per beat
and per check, each summed over the workload, must stay level, within x2.
"""

from __future__ import annotations

import pytest

from tests.support.checks import expect
from tests.support.cost import GROWTH, Growth
from tests.support.detecting import MonitorWorkload, monitor_cost_question
from tests.support.impl import Implementation

pytestmark = pytest.mark.monitor_cost

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
}
LEVEL_ANSWER = (Growth(level=True, unit="beat"), Growth(level=True, unit="check"))


@pytest.mark.parametrize("workload", WORKLOADS)
def test_beats_and_checks_cost_the_same_at_any_world_size(
    impl: Implementation, workload: str
) -> None:
    """A check walks only the ranks it reports; a beat touches one rank."""
    expect(impl, monitor_cost_question(WORKLOADS[workload]), LEVEL_ANSWER, rule=RULE)
