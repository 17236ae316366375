"""From a log of start and stop events to busy intervals: every event accounted for."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tests.support.sweeping import UNTIL, Ev, Span, Sweep, pairing

pytestmark = pytest.mark.sweep_events

PAIRING = (
    "take events in time order (ties in log order); pair each start with the next stop of "
    "the same (GPU, job); a start never stopped is busy until `until`."
)


@pytest.mark.rules(8)
def test_an_out_of_order_log_is_paired_by_time(sweep: Sweep) -> None:
    events = [
        Ev(7, 0, "a", "stop"),
        Ev(2, 1, "b", "start"),
        Ev(3, 0, "a", "start"),
        Ev(9, 1, "b", "stop"),
    ]
    sweep.pairs(events, [Span(0, "a", 3, 7), Span(1, "b", 2, 9)], rule=PAIRING)


@pytest.mark.rules(8)
def test_a_start_never_stopped_is_busy_until_the_log_ends(sweep: Sweep) -> None:
    """The job is still running when the log was cut: dropping it under-counts the busiest jobs."""
    events = [Ev(3, 0, "a", "start"), Ev(5, 1, "b", "start"), Ev(9, 1, "b", "stop")]
    sweep.pairs(events, [Span(0, "a", 3, UNTIL), Span(1, "b", 5, 9)], rule=PAIRING)


@pytest.mark.rules(8)
def test_a_restart_at_one_instant_is_two_touching_intervals(sweep: Sweep) -> None:
    """Logged "stop, start" at 5: [0, 5) then [5, 9)."""
    events = [
        Ev(0, 0, "a", "start"),
        Ev(5, 0, "a", "stop"),
        Ev(5, 0, "a", "start"),
        Ev(9, 0, "a", "stop"),
    ]
    sweep.pairs(events, [Span(0, "a", 0, 5), Span(0, "a", 5, 9)], rule=PAIRING)


@pytest.mark.rules(8)
def test_a_start_and_stop_at_one_instant_is_a_zero_length_interval(sweep: Sweep) -> None:
    """Logged "start, stop" at 4: the interval [4, 4), kept (nothing is dropped)."""
    events = [Ev(4, 2, "probe", "start"), Ev(4, 2, "probe", "stop")]
    sweep.pairs(events, [Span(2, "probe", 4, 4)], rule=PAIRING)


@pytest.mark.rules(8)
def test_one_job_on_two_gpus_is_paired_per_gpu(sweep: Sweep) -> None:
    events = [
        Ev(0, 0, "a", "start"),
        Ev(1, 1, "a", "start"),
        Ev(4, 1, "a", "stop"),
        Ev(6, 0, "a", "stop"),
    ]
    sweep.pairs(events, [Span(0, "a", 0, 6), Span(1, "a", 1, 4)], rule=PAIRING)


@pytest.mark.rules(8, 9)
def test_events_at_until_are_in_the_log(sweep: Sweep) -> None:
    """A stop at `until` closes its interval; a start at `until` is the interval [until, until)."""
    events = [Ev(3, 0, "a", "start"), Ev(UNTIL, 0, "a", "stop"), Ev(UNTIL, 1, "b", "start")]
    sweep.pairs(events, [Span(0, "a", 3, UNTIL), Span(1, "b", UNTIL, UNTIL)], rule=PAIRING)


@pytest.mark.rules(8)
def test_an_empty_log_has_no_intervals(sweep: Sweep) -> None:
    sweep.pairs([], [], rule=PAIRING)


@st.composite
def consistent_logs(draw: st.DrawFn) -> tuple[list[Ev], list[Span]]:
    """A log and the intervals it describes: per (GPU, job) strictly increasing times."""
    events, spans = [], []
    for gpu, job in draw(st.sets(st.tuples(st.integers(0, 3), st.sampled_from("abc")), max_size=5)):
        times = sorted(draw(st.sets(st.integers(0, UNTIL), max_size=6)))
        for i in range(0, len(times), 2):
            start = times[i]
            end = times[i + 1] if i + 1 < len(times) else UNTIL
            spans.append(Span(gpu, job, start, end))
            events.append(Ev(start, gpu, job, "start"))
            if i + 1 < len(times):
                events.append(Ev(end, gpu, job, "stop"))
    return draw(st.permutations(events)), spans


@pytest.mark.rules(8)
@given(consistent_logs())
def test_any_consistent_log_in_any_order_gives_back_its_intervals(
    sweep: Sweep, log: tuple[list[Ev], list[Span]]
) -> None:
    events, want = log
    sweep.pairs(events, want, rule=PAIRING)


BAD = {
    "a stop without a start": [
        Ev(0, 0, "a", "start"),
        Ev(5, 0, "a", "stop"),
        Ev(8, 0, "a", "stop"),
    ],
    "a lone stop": [Ev(5, 0, "a", "stop")],
    "a stop before its start": [Ev(5, 0, "a", "stop"), Ev(9, 0, "a", "start")],
    "a stop on another GPU than its start": [Ev(0, 0, "a", "start"), Ev(5, 1, "a", "stop")],
    "a double start of a running job": [Ev(0, 0, "a", "start"), Ev(3, 0, "a", "start")],
    "a negative time": [Ev(-1, 0, "a", "start")],
    "a negative GPU": [Ev(1, -1, "a", "start"), Ev(2, -1, "a", "stop")],
    "an unknown kind of event": [Ev(0, 0, "a", "pause")],
    "an unknown kind first": [
        Ev(0, 0, "a", "pause"),
        Ev(1, 0, "a", "start"),
        Ev(2, 0, "a", "stop"),
    ],
    "an unknown kind between a start and its stop": [
        Ev(0, 0, "a", "start"),
        Ev(1, 0, "a", "pause"),
        Ev(2, 0, "a", "stop"),
    ],
    "an unknown kind after every interval closed": [
        Ev(0, 0, "a", "start"),
        Ev(2, 0, "a", "stop"),
        Ev(5, 1, "b", "resume"),
    ],
    "an unknown kind of another job": [Ev(0, 0, "a", "start"), Ev(1, 3, "z", "STOP")],
    "an unknown kind where a stop would fit": [Ev(0, 0, "a", "start"), Ev(3, 0, "a", "pause")],
    "an unknown kind where a start would fit": [Ev(0, 0, "a", "begin"), Ev(3, 0, "a", "stop")],
    "an event after the end of the log": [Ev(0, 0, "a", "start"), Ev(UNTIL + 1, 0, "a", "stop")],
    "a start after the end of the log": [Ev(UNTIL + 1, 0, "a", "start")],
}


@pytest.mark.rules(9)
@pytest.mark.parametrize("case", BAD)
def test_an_inconsistent_log_raises_value_error(sweep: Sweep, case: str) -> None:
    """Nothing is silently dropped or guessed: the error names the event."""
    sweep.refuses(pairing(BAD[case]), case)


@pytest.mark.rules(9, 10)
@pytest.mark.parametrize("case", ["an unknown kind between a start and its stop", "a negative GPU"])
def test_an_inconsistent_stream_is_refused(sweep: Sweep, case: str) -> None:
    sweep.refuses(pairing(BAD[case], form="iterator"), case + ", in a one-shot iterator")
