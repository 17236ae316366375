"""Phi's history: Akka's bootstrap, a window of max_sample_size, nothing after a suspicion."""

from __future__ import annotations

import pytest

from kata.checks import expect
from kata.impl import Implementation
from tests.support.diagnosing import (
    available_at,
    beats_every,
    phi_at,
    trace,
    trace_oracle,
    trace_question,
)

pytestmark = pytest.mark.phi_history

RULE = (
    "the first heartbeat starts the history with two intervals, first_heartbeat_estimate "
    "-/+ a quarter of it (integer division); each later heartbeat records its interval only "
    "if phi was below the threshold when it arrived; the history keeps the last "
    "max_sample_size intervals."
)


@pytest.mark.rules(13)
def test_before_any_heartbeat_phi_is_zero(impl: Implementation) -> None:
    t = trace(phi_at(0, 10_000_000), available_at(10_000_000))
    expect(impl, trace_question(t), trace_oracle(t), rule=RULE)


@pytest.mark.rules(12)
def test_one_heartbeat_then_silence_becomes_suspicious(impl: Implementation) -> None:
    """The bootstrap (750 and 1,250 ms) makes a process heard once suspicious after about
    4.6 s (mean 1 s + 3 s pause, deviation 250 ms); without it there would be no statistics."""
    t = trace([("beat", 0)], phi_at(3_000, 4_000), available_at(4_000), phi_at(5_000))
    t = trace(t.steps, available_at(6_000))
    want = trace_oracle(t)
    assert (want[2], want[4]) == (True, False)  # the oracle's own sanity: suspicious by 6 s
    expect(impl, trace_question(t), want, rule=RULE)


@pytest.mark.rules(12)
def test_the_bootstrap_divides_the_estimate_in_integers(impl: Implementation) -> None:
    """An estimate of 1,002: its quarter is 250 (integer division), so the made-up intervals
    are 752 and 1,252, not 751.5 and 1,252.5."""
    t = trace([("beat", 0)], phi_at(5_000), first_heartbeat_estimate=1_002)
    expect(impl, trace_question(t), trace_oracle(t), rule=RULE)


@pytest.mark.rules(12)
def test_the_bootstrap_is_forgotten_once_the_window_is_full(impl: Implementation) -> None:
    """max_sample_size 4: after five steady intervals of 1,000 ms the deviation is 0 (the
    floor, 100 ms, applies); with the bootstrap still in it, it would be 177 ms."""
    t = trace(beats_every(1_000, 6), phi_at(5_000 + 4_300), max_sample_size=4)
    expect(impl, trace_question(t), trace_oracle(t), rule=RULE)


@pytest.mark.rules(12)
def test_an_interval_that_ended_a_suspicion_is_not_recorded(impl: Implementation) -> None:
    """Steady 1 s heartbeats, then a 20 s gap (suspected), then steady again: the 20 s
    interval is left out, so 4.4 s of silence later is as unsuspicious as before the gap."""
    steady = beats_every(1_000, 20)
    after = beats_every(1_000, 5, first=39_000)
    t = trace(steady, phi_at(19_000 + 4_400), after, phi_at(43_000 + 4_400))
    answers = trace_oracle(t)
    assert answers[0] == answers[1]  # the oracle's own sanity: the gap left no trace
    expect(impl, trace_question(t), answers, rule=RULE)


@pytest.mark.rules(12)
def test_below_log10_of_2_an_interval_shorter_than_the_mean_can_end_a_suspicion(
    impl: Implementation,
) -> None:
    """Threshold 0.2, no pause: phi is log10(2) = 0.301 at the mean silence, so 990 ms after
    the first heartbeat (mean 1,000) the process is already suspected, and the interval
    that ends there is not recorded. A fast path assuming suspicion only past the mean
    records it."""
    t = trace(
        (("beat", 0), ("beat", 990)), phi_at(1_990), threshold=0.2, acceptable_heartbeat_pause=0
    )
    expect(impl, trace_question(t), trace_oracle(t), rule=RULE)


@pytest.mark.rules(12)
def test_the_window_keeps_the_last_max_sample_size_intervals(impl: Implementation) -> None:
    """Three intervals of 500 then three of 1,500 with a window of 3: the mean is 1,500."""
    beats = [("beat", t) for t in (0, 500, 1_000, 1_500, 3_000, 4_500, 6_000)]
    t = trace(beats, phi_at(6_000 + 4_500, 6_000 + 4_700), max_sample_size=3)
    expect(impl, trace_question(t), trace_oracle(t), rule=RULE)


def _first_suspicious_silence(steady: tuple[tuple[str, int], ...]) -> int:
    """The shortest silence after `steady` at which the oracle's phi reaches the threshold."""
    last = steady[-1][1]
    low, high = 0, 100_000  # phi < threshold at low, >= at high
    while high - low > 1:
        middle = (low + high) // 2
        (available,) = trace_oracle(trace(steady, available_at(last + middle)))
        low, high = (middle, high) if available else (low, middle)
    return high


@pytest.mark.rules(12)
@pytest.mark.parametrize("late", [0, 1], ids=["one tick short of suspicion", "at suspicion"])
def test_an_interval_is_recorded_exactly_while_phi_is_below_the_threshold(
    impl: Implementation, late: int
) -> None:
    """Steady 1 s heartbeats (the default settings), then one after the shortest silence at
    which phi reaches 8, or one tick before it: recorded one tick before (phi still below
    8, though far above the mean), not recorded at it. Then 4.4 s of silence shows which."""
    steady = beats_every(1_000, 20)
    silence = _first_suspicious_silence(steady) - 1 + late
    arrival = steady[-1][1] + silence
    t = trace(steady, [("beat", arrival)], phi_at(arrival + 4_400))
    expect(impl, trace_question(t), trace_oracle(t), rule=RULE)


@pytest.mark.rules(12)
def test_the_default_window_keeps_the_last_thousand_intervals(impl: Implementation) -> None:
    """Default settings: the bootstrap's two intervals, one of 3 s, then 999 of 1 s. A window
    of 1,000 holds the 3 s interval and the 999; of 999 or 1,001 intervals, not the same."""
    beats = [("beat", 0), *beats_every(1_000, 1_000, first=3_000)]
    t = trace(beats, phi_at(beats[-1][1] + 4_200))
    expect(impl, trace_question(t), trace_oracle(t), rule=RULE)
