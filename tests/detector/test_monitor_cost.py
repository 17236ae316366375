"""The monitor's cost, counted: a beat O(1), a check O(1 + ranks reported), amortized.

Work is the Python lines executed (tests/support/cost.py), never time: the
verdict is the same on any machine.  Ranks and clock readings are `Counted`
ints, so comparisons done in C (``list.remove``, ``sorted``, ``min``) count
too.  A job of n ranks and one of 8n run the same workload, in which nobody
is reported, ranks beating in a shuffled order (seeded); the work per beat
and per check, each summed over the workload, must stay level, within x2.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from functools import partial
from typing import Any

import pytest

from tests.support.checks import expect
from tests.support.cost import GROWTH, LEVEL, Counted, Growth, work
from tests.support.detecting import BOOT
from tests.support.impl import Implementation
from tests.support.outcomes import Question, ShapeError

pytestmark = pytest.mark.monitor_cost

RANKS = 32
ROUNDS = 3
RULE = (
    "a beat costs O(1) and a check O(1 + ranks reported), amortized: never a scan of every "
    "rank. Keep ranks in the order they were last heard (an ordered dict moved to the end on "
    "each beat, or a queue of receipts whose stale entries are dropped as they are met), and "
    "stop at the first rank within the timeout."
)


@dataclass
class Tally:
    """Lines executed by beats and by checks, and how many of each."""

    beat_lines: int = 0
    beats: int = 0
    check_lines: int = 0
    checks: int = 0


def shuffled(world_size: int, seed: int) -> list[Counted]:
    ranks = [Counted(rank) for rank in range(world_size)]
    random.Random(seed).shuffle(ranks)
    return ranks


def run_rounds(impl: Implementation, world_size: int, rounds: int, *, warm: bool) -> Tally:
    """Rounds of beats in shuffled orders, a check after each beat; nobody is ever silent."""
    monitor_class = impl.require("HeartbeatMonitor")
    clock = [Counted(BOOT)]
    monitor = monitor_class(world_size, 10 * (rounds + 1) * world_size, clock=lambda: clock[0])
    orders = [shuffled(world_size, seed) for seed in range(rounds + 1)]
    if warm:  # every rank beats once, unmeasured: the steady state of a running job
        for rank in orders.pop(0):
            clock[0] = Counted(clock[0] + 1)
            monitor.beat(rank)
    tally, reports = Tally(), list[Any]()
    for ranks in orders[:rounds]:
        for rank in ranks:
            clock[0] = Counted(clock[0] + 1)
            tally.beat_lines += work(partial(monitor.beat, rank))
            tally.check_lines += work(lambda: reports.append(monitor.stopped()))
            tally.beats, tally.checks = tally.beats + 1, tally.checks + 1
            if reports[-1] != []:
                raise ShapeError(
                    "stopped() reported ranks in a job where every rank was heard within the "
                    "timeout (or is within its grace period since start): the answer is wrong, "
                    "so its cost was not measured",
                    repr(reports[-1]),
                )
    return tally


@dataclass(frozen=True)
class Workload:
    name: str
    text: str
    rounds: int
    warm: bool

    def question(self) -> Question:
        def ask(impl: Implementation) -> tuple[Growth, Growth]:
            small = run_rounds(impl, RANKS, self.rounds, warm=self.warm)
            large = run_rounds(impl, GROWTH * RANKS, self.rounds, warm=self.warm)
            return (
                _growth(small.beat_lines / small.beats, large.beat_lines / large.beats, "beat"),
                _growth(
                    small.check_lines / small.checks, large.check_lines / large.checks, "check"
                ),
            )

        return Question(self.text, ask, lambda answer: "; ".join(map(str, answer)))


def _growth(small: float, large: float, unit: str) -> Growth:
    return Growth(large / max(small, 1.0) <= LEVEL, small, large, LEVEL, unit)


WORKLOADS = {
    "startup": Workload(
        "startup",
        f"HeartbeatMonitor(n, timeout=20n): every rank beats for the first time, in a shuffled "
        f"order, each beat followed by stopped(); n = {RANKS}, then {GROWTH * RANKS}",
        rounds=1,
        warm=False,
    ),
    "steady": Workload(
        "steady",
        f"HeartbeatMonitor(n, timeout={10 * (ROUNDS + 1)}n): every rank has beaten; {ROUNDS} "
        f"rounds of beats in shuffled orders, each beat followed by stopped(); n = {RANKS}, "
        f"then {GROWTH * RANKS}",
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
    expect(impl, WORKLOADS[workload].question(), LEVEL_ANSWER, rule=RULE)
