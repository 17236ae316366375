"""HeartbeatMonitor: stopped() is what detect would say of every beat so far, now."""

from __future__ import annotations

from typing import Any, NoReturn

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

from kata.checks import KataFailure, expect, returns
from kata.impl import Implementation
from kata.outcomes import Returned, ask_all
from tests.support.detecting import (
    Session,
    monitor_started,
    monitor_step,
    session_question,
    step_line,
)

pytestmark = [pytest.mark.monitor, pytest.mark.rules(11)]

AGREES = (
    "stopped() returns detect(every beat so far, world_size, start = the clock at "
    "construction, now = the clock read once by this check, timeout); beat(rank) is "
    "stamped with the clock when it is called."
)


def agree(impl: Implementation, session: Session) -> None:
    """Fail unless each stopped() of the session reports what detect would."""
    expect(impl, session_question(session), session.expected(), rule=AGREES)


def test_ranks_never_heard_are_silent_since_the_monitor_started(impl: Implementation) -> None:
    """start is the clock at construction, not 0: a fresh job has its grace period."""
    session = Session(3, 5).then(("stopped", 0), ("advance", 5), ("stopped", 0))
    agree(impl, session.then(("advance", 1), ("stopped", 0)))


def test_a_beat_is_stamped_with_the_collectors_clock(impl: Implementation) -> None:
    """beat(rank) takes no time argument: the receive time is the monitor's own clock."""
    agree(impl, Session(2, 5).then(("advance", 3), ("beat", 1), ("advance", 6), ("stopped", 0)))


def test_a_rank_heard_again_moves_behind_the_silent_ones(impl: Implementation) -> None:
    """Rank 0 beats first and again last: rank 1, heard in between, is now the older."""
    session = Session(3, 5).then(
        ("beat", 0), ("advance", 1), ("beat", 1), ("advance", 1), ("beat", 0), ("advance", 5)
    )
    agree(impl, session.then(("stopped", 0)))


def test_a_reported_rank_heard_again_is_no_longer_reported(impl: Implementation) -> None:
    session = Session(2, 3).then(("beat", 0), ("beat", 1), ("advance", 5), ("stopped", 0))
    agree(impl, session.then(("beat", 1), ("stopped", 0), ("advance", 4), ("stopped", 0)))


def test_ranks_heard_at_one_tick_are_reported_in_rank_order(impl: Implementation) -> None:
    session = Session(4, 2).then(("beat", 3), ("beat", 1), ("beat", 2), ("advance", 3))
    agree(impl, session.then(("beat", 0), ("stopped", 0)))


def test_a_check_reads_the_clock_once(impl: Implementation) -> None:
    """One now for every rank in a check: a second read could judge ranks at different times."""
    session = Session(3, 2, count_reads=True).then(("beat", 0), ("advance", 5), ("stopped", 0))
    agree(impl, session.then(("beat", 1), ("stopped", 0)))


def test_no_ranks_and_a_zero_timeout_are_valid(impl: Implementation) -> None:
    agree(impl, Session(0, 0).then(("stopped", 0), ("advance", 9), ("stopped", 0)))
    agree(impl, Session(1, 0).then(("beat", 0), ("stopped", 0), ("advance", 1), ("stopped", 0)))


@pytest.mark.alone("a stateful property (hypothesis), the backstop for what no example foresaw")
def test_the_monitor_agrees_with_detect_after_every_step(impl: Implementation) -> None:
    """Stateful: random beats and clock moves; after each step, stopped() equals detect.

    The monitor lives where the module runs, driven step by step (each step sent
    with the check after it); on the first difference the session is replayed
    from the start on a fresh monitor, to show every report.
    """
    impl.needs("HeartbeatMonitor")

    class MonitorMatchesDetect(RuleBasedStateMachine):
        session: Any = None

        @initialize(world_size=st.integers(1, 6), timeout=st.integers(0, 8))
        def start(self, world_size: int, timeout: int) -> None:
            self.session = Session(world_size, timeout)
            self.steps = [monitor_started(world_size, timeout)]
            (self.monitor,) = self.live()

        @precondition(lambda self: self.session is not None)
        @rule(ticks=st.integers(0, 6))
        def time_passes(self, ticks: int) -> None:
            self.step("advance", ticks)

        @precondition(lambda self: self.session is not None)
        @rule(data=st.data())
        def beat(self, data: st.DataObject) -> None:
            self.step("beat", data.draw(st.integers(0, self.session.world_size - 1), label="rank"))

        @precondition(lambda self: self.session is not None)
        @invariant()
        def reports_what_detect_would(self) -> None:
            self.step("stopped", 0)
            *_, report = self.live()
            if report != self.session.final():
                self.diverged(report)

        def step(self, kind: str, value: int) -> None:
            self.session = self.session.then((kind, value))
            self.steps.append(monitor_step(self.monitor, kind, value, step_line(kind, value)))

        def live(self) -> list[Any]:
            """The steps' answers; if one raised, the replay from the start says what went wrong."""
            steps, self.steps = self.steps, []
            answers = []
            for outcome in ask_all(steps, impl):
                if not isinstance(outcome, Returned):
                    self.diverged(outcome)
                answers.append(outcome.value)
            return answers

        def diverged(self, got: Any) -> NoReturn:
            agree(impl, self.session)  # replayed on a fresh monitor: shows every report
            raise KataFailure(
                f"{self.session}\n  the monitor, driven step by step, answered {got} at the last "
                "step, yet a fresh monitor given the same steps agrees with detect: the answer "
                f"depends on something other than the beats and the clock\n  Rule: {AGREES}",
                impl=impl,
                questions=[session_question(self.session)],
                outcomes=[Returned(got, str(got))],
                judge=returns(self.session.expected()),
            )

    run_state_machine_as_test(MonitorMatchesDetect)
