"""HeartbeatMonitor: stopped() is what detect would say of every beat so far, now."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    precondition,
    rule,
    run_state_machine_as_test,
)

from tests.support import detecting
from tests.support.detecting import Beat, Call, Row
from tests.support.impl import Implementation
from tests.support.raising import expect_value_error

pytestmark = pytest.mark.monitor

BOOT = 7_000_000_000  # the collector's clock when the monitor starts: not 0


class FakeClock:
    """A clock that moves only when a test moves it."""

    def __init__(self, now: int = BOOT) -> None:
        self.now = now

    def __call__(self) -> int:
        return self.now


@pytest.fixture(scope="session")
def monitor_class(impl: Implementation) -> Any:
    return impl.require("HeartbeatMonitor")


def stopped(monitor: Any, description: str) -> list[Row]:
    """The monitor's report as Rows, failing clearly if it is not one."""
    try:
        return [Row(s.rank, s.last_heard, s.silence) for s in monitor.stopped()]
    except (TypeError, AttributeError) as error:
        pytest.fail(
            f"{description}\n  stopped() did not return a list of Stopped: {error}", pytrace=False
        )


def agree(monitor: Any, history: list[Beat], *, world_size: int, timeout: int, now: int) -> None:
    """Fail unless the monitor reports what the oracle says of the same beats."""
    call = Call(tuple(history), world_size, BOOT, now, timeout)
    want, got = detecting.oracle(call), stopped(monitor, str(call))
    if got != want:
        mistake = detecting.diagnose(call, want, got) or (
            "stopped() must equal detect(every beat so far, start=the clock at construction, "
            "now=clock())."
        )
        if set(got) < set(want):
            mistake = (
                f"stopped() missed {sorted(set(want) - set(got))}. A check that stops at the "
                "first rank within the timeout is right only if every beat moves its rank to "
                "the back (receipt order is then silence order)."
            )
        pytest.fail(
            f"HeartbeatMonitor(world_size={world_size}, timeout={timeout}, clock=...) started at "
            f"{BOOT}, then beats (rank, received_at) {[(b.rank, b.received_at) for b in history]}; "
            f"stopped() at {now}\n  expected: {want}\n       got: {got}\n"
            f"  Likely mistake: {mistake}",
            pytrace=False,
        )


def test_ranks_never_heard_are_silent_since_the_monitor_started(monitor_class: Any) -> None:
    """start is the clock at construction, not 0: a fresh job has its grace period."""
    clock = FakeClock()
    monitor = monitor_class(3, 5, clock=clock)
    agree(monitor, [], world_size=3, timeout=5, now=clock.now)
    clock.now += 5
    agree(monitor, [], world_size=3, timeout=5, now=clock.now)
    clock.now += 1
    agree(monitor, [], world_size=3, timeout=5, now=clock.now)


def test_a_beat_is_stamped_with_the_collectors_clock(monitor_class: Any) -> None:
    """beat(rank) takes no time argument: the receive time is the monitor's own clock."""
    clock = FakeClock()
    monitor = monitor_class(2, 5, clock=clock)
    clock.now += 3
    monitor.beat(1)
    clock.now += 6
    agree(monitor, [Beat(1, BOOT + 3, BOOT + 3)], world_size=2, timeout=5, now=clock.now)


def test_a_clock_going_back_raises_value_error(monitor_class: Any) -> None:
    """A monotonic clock never goes back; if it does, silences are meaningless."""
    clock = FakeClock()
    monitor = monitor_class(2, 5, clock=clock)
    clock.now += 10
    monitor.beat(0)
    clock.now -= 1
    expect_value_error(
        lambda: (monitor.beat(1), monitor.stopped()),
        f"clock at {clock.now + 1}, beat(0), clock back to {clock.now}, then beat(1) and stopped()",
        "a clock that went backwards",
    )


@pytest.mark.parametrize("rank", [-1, 2])
def test_a_beat_from_a_rank_outside_the_world_raises_value_error(
    monitor_class: Any, rank: int
) -> None:
    """As in detect, a heartbeat no rank could send is an error, not noise."""
    monitor = monitor_class(2, 5, clock=FakeClock())
    expect_value_error(
        lambda: monitor.beat(rank), f"HeartbeatMonitor(2, 5).beat({rank})", f"rank {rank}"
    )


def test_the_monitor_agrees_with_detect_after_every_step(monitor_class: Any) -> None:
    """Stateful: random beats and clock moves; after each step, stopped() equals detect."""

    class MonitorMatchesDetect(RuleBasedStateMachine):
        monitor: Any = None

        @initialize(world_size=st.integers(1, 6), timeout=st.integers(0, 8))
        def start(self, world_size: int, timeout: int) -> None:
            self.clock, self.history = FakeClock(), list[Beat]()
            self.world_size, self.timeout = world_size, timeout
            self.monitor = monitor_class(world_size, timeout, clock=self.clock)

        @precondition(lambda self: self.monitor is not None)
        @rule(ticks=st.integers(0, 6))
        def time_passes(self, ticks: int) -> None:
            self.clock.now += ticks

        @precondition(lambda self: self.monitor is not None)
        @rule(data=st.data())
        def beat(self, data: st.DataObject) -> None:
            rank = data.draw(st.integers(0, self.world_size - 1), label="rank")
            self.monitor.beat(rank)
            self.history.append(Beat(rank, self.clock.now, self.clock.now))

        @precondition(lambda self: self.monitor is not None)
        @invariant()
        def reports_what_detect_would(self) -> None:
            agree(
                self.monitor,
                self.history,
                world_size=self.world_size,
                timeout=self.timeout,
                now=self.clock.now,
            )

    run_state_machine_as_test(MonitorMatchesDetect)
