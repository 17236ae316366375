"""Phi as Akka computes it: the mean plus the acceptable pause, a floor on the deviation."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from kata.checks import expect
from kata.impl import Implementation
from tests.support.diagnosing import (
    RELATIVE,
    at_its_own_phi_question,
    available_at,
    beats_every,
    phi_at,
    trace,
    trace_oracle,
    trace_question,
)

pytestmark = pytest.mark.phi_value

RULE = (
    "phi = log10(1 + exp(z)), z = y * (1.5976 + 0.070566 * y**2), y = (silence - mean) / std, "
    "with mean = the history's mean + acceptable_heartbeat_pause and std = max(the history's "
    f"population deviation, min_std_deviation); compared within {RELATIVE:g} relative error "
    "(a float by nature); available iff phi < threshold."
)


@pytest.mark.rules(13)
def test_phi_follows_akkas_formula(impl: Implementation) -> None:
    """Steady 1 s heartbeats: phi at a few silences around the 4 s mean."""
    t = trace(beats_every(1_000, 30), phi_at(*(29_000 + s for s in (3_000, 4_000, 4_300, 4_700))))
    expect(impl, trace_question(t), trace_oracle(t), rule=RULE)


@pytest.mark.rules(13)
def test_the_acceptable_pause_moves_the_mean_not_the_deviation(impl: Implementation) -> None:
    t = trace(beats_every(1_000, 30), phi_at(29_000 + 1_400), acceptable_heartbeat_pause=0)
    expect(impl, trace_question(t), trace_oracle(t), rule=RULE)


@pytest.mark.rules(13)
def test_the_deviation_never_falls_below_its_floor(impl: Implementation) -> None:
    """Perfectly regular heartbeats (deviation 0 once the bootstrap has left the window):
    without the floor, 1 ms past the mean would be infinitely suspicious."""
    t = trace(beats_every(1_000, 12), phi_at(11_000 + 4_001, 11_000 + 4_100), max_sample_size=10)
    expect(impl, trace_question(t), trace_oracle(t), rule=RULE)


@pytest.mark.rules(13)
def test_the_deviation_is_the_populations(impl: Implementation) -> None:
    """Intervals alternating 800 and 1,200 ms (a window of 20): the deviation is 200 over
    n, not 205 over n - 1, as Akka's history computes it."""
    ticks = [0]
    for i in range(20):
        ticks.append(ticks[-1] + (800 if i % 2 else 1_200))
    t = trace([("beat", t) for t in ticks], phi_at(ticks[-1] + 3_800), max_sample_size=20)
    expect(impl, trace_question(t), trace_oracle(t), rule=RULE)


@pytest.mark.rules(14)
def test_a_silence_far_below_the_mean_is_phi_zero_not_an_overflow(impl: Implementation) -> None:
    """Right after a heartbeat, y is about -40 and exp(-y * ...) is e**4580: a float
    overflows; phi is 0 there."""
    t = trace(beats_every(1_000, 5), phi_at(4_000), available_at(4_000), phi_at(4_001))
    expect(impl, trace_question(t), trace_oracle(t), rule=RULE)


@pytest.mark.rules(14)
def test_a_silence_far_above_the_mean_is_a_large_phi_not_an_overflow(impl: Implementation) -> None:
    """The other side: 60 s after regular beats 1 s apart, z is far past 709, where
    exp(z) overflows a float; phi is large there (about z / ln 10), and finite."""
    t = trace(beats_every(1_000, 5), phi_at(4_000 + 60_000), available_at(4_000 + 60_000))
    expect(impl, trace_question(t), trace_oracle(t), rule=RULE)


@pytest.mark.rules(15)
def test_available_is_phi_below_the_threshold(impl: Implementation) -> None:
    """Threshold 1: phi crosses it between 4.0 s and 4.2 s of silence."""
    t = trace(beats_every(1_000, 30), available_at(29_000 + 4_000, 29_000 + 4_200), threshold=1.0)
    expect(impl, trace_question(t), (True, False), rule=RULE)


@pytest.mark.rules(15)
def test_phi_exactly_at_the_threshold_is_not_available(impl: Implementation) -> None:
    """One heartbeat (the history is the two made-up intervals whatever the threshold), then
    the threshold set to the very phi read 1 s later: `phi < threshold` is false there."""
    t = trace((("beat", 0),), acceptable_heartbeat_pause=0)
    expect(impl, at_its_own_phi_question(t, 1_000), False, rule=RULE)


@pytest.mark.rules(12, 13)
@given(
    st.lists(st.integers(1, 3_000), min_size=1, max_size=30),
    st.integers(0, 12_000),
    st.integers(1, 20),
)
def test_any_history_matches_the_oracle(
    impl: Implementation, intervals: list[int], silence: int, window: int
) -> None:
    """Any intervals, any window: phi and availability as the oracle computes them."""
    ticks = [0]
    for interval in intervals:
        ticks.append(ticks[-1] + interval)
    beats = [("beat", t) for t in ticks]
    t = trace(beats, phi_at(ticks[-1] + silence), max_sample_size=window)
    expect(impl, trace_question(t), trace_oracle(t), rule=RULE)
