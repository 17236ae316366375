"""The input: any order, any iterable, read once and never modified."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tests.support.detecting import Beat, Call, Detector, Row, beats
from tests.support.strategies import calls

pytestmark = pytest.mark.input_order

LATEST = "last_heard is the greatest received_at, not the last heartbeat in input order."
ONCE = (
    "heartbeats may be any iterable, read once: a log streamed from a file is an iterator, "
    "and a second pass over it sees nothing. Read it once, never modify the caller's list."
)
# Out of receive order, with a rank that a second pass over an exhausted iterator would lose.
MERGED = Call(beats([(0, 9), (1, 4), (0, 3)]), 2, 0, 12, 5)


@pytest.mark.rules(2)
def test_the_latest_heartbeat_counts_not_the_last_listed(detector: Detector) -> None:
    """Logs merged from several collectors are out of order; 9 is later than 3."""
    detector.check(MERGED, [Row(1, 4, 8)], rule=LATEST)


@pytest.mark.rules(2)
def test_a_log_in_reverse_receive_order_gives_the_same_answer(detector: Detector) -> None:
    """Newest first, as a log read backwards from its end."""
    call = Call(beats([(1, 8), (0, 7), (1, 2), (0, 1)]), 2, 0, 14, 5)
    detector.check(call, [Row(0, 7, 7), Row(1, 8, 6)], rule=LATEST)


@pytest.mark.rules(8)
@pytest.mark.parametrize("form", ["iterator", "generator"])
def test_a_one_shot_iterable_is_read_once(detector: Detector, form: str) -> None:
    """iter(list) or a generator: the same answer as the list gives."""
    detector.check(MERGED, [Row(1, 4, 8)], rule=ONCE, form=form)


@pytest.mark.rules(8)
def test_the_callers_list_is_not_reordered(detector: Detector) -> None:
    """Sorting the caller's list in place changes their data behind their back."""
    detector.check(MERGED, [Row(1, 4, 8)], rule=ONCE, keeps_input=True)


@pytest.mark.rules(2)
def test_a_heartbeat_received_at_tick_zero_is_heard(detector: Detector) -> None:
    """A start of -10 (clocks count from anywhere): rank 0 heard at tick 0 has last_heard 0,
    silence 20; rank 1, never heard, silence 30. A test of `if last_heard:` makes 0 "never"."""
    call = Call(beats([(0, 0)]), 2, -10, 20, 5)
    detector.check(
        call, [Row(1, None, 30), Row(0, 0, 20)], rule=LATEST + " A receipt at 0 is heard."
    )


@pytest.mark.rules(2)
@given(calls().flatmap(lambda call: st.tuples(st.just(call), st.permutations(call.heartbeats))))
def test_any_permutation_of_the_log_gives_the_same_answer(
    detector: Detector, call_and_order: tuple[Call, list[Beat]]
) -> None:
    """The answer depends on the set of heartbeats, not on their order."""
    call, order = call_and_order
    permuted = Call(tuple(order), *call.window())
    detector.holds(
        [call, permuted],
        lambda answer, reordered: answer == reordered,
        claim="reordering the log changed the answer",
        rule=LATEST,
    )


@pytest.mark.rules(8)
@given(calls())
def test_a_generator_of_any_log_gives_the_lists_answer(detector: Detector, call: Call) -> None:
    detector.check(call, rule=ONCE, form="generator", keeps_input=True)
