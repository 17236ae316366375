"""From a log of start and stop events to busy intervals: every event accounted for."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tests.support.raising import expect_value_error
from tests.support.sweeping import Span, as_spans, fail

pytestmark = pytest.mark.sweep_events

UNTIL = 100


def pair(
    intervals_from_events: Any,
    event_type: Any,
    events: list[tuple[int, int, str, str]],
    want: list[Span],
    hint: str,
) -> None:
    call = f"intervals_from_events({[f'Event{e}' for e in events]}, until={UNTIL})"
    try:
        got = as_spans(intervals_from_events([event_type(*e) for e in events], until=UNTIL))
    except NotImplementedError:
        raise
    except Exception as error:
        fail(
            call,
            f"raised {type(error).__name__}: {error}",
            str(sorted(want)),
            "this log is consistent: " + hint,
        )
    if got != sorted(want):
        fail(call, str(got), str(sorted(want)), hint)


def test_an_out_of_order_log_is_paired_by_time(intervals_from_events: Any, event_type: Any) -> None:
    events = [(7, 0, "a", "stop"), (2, 1, "b", "start"), (3, 0, "a", "start"), (9, 1, "b", "stop")]
    want = [Span(0, "a", 3, 7), Span(1, "b", 2, 9)]
    pair(
        intervals_from_events,
        event_type,
        events,
        want,
        "sort the events by time before pairing them.",
    )


def test_a_start_never_stopped_is_busy_until_the_log_ends(
    intervals_from_events: Any, event_type: Any
) -> None:
    """The job is still running when the log was cut: dropping it under-counts the busiest jobs."""
    events = [(3, 0, "a", "start"), (5, 1, "b", "start"), (9, 1, "b", "stop")]
    want = [Span(0, "a", 3, UNTIL), Span(1, "b", 5, 9)]
    pair(
        intervals_from_events,
        event_type,
        events,
        want,
        "an unterminated start is busy until `until`; it must not be dropped.",
    )


def test_a_restart_at_one_instant_is_two_touching_intervals(
    intervals_from_events: Any, event_type: Any
) -> None:
    """Logged "stop, start" at 5: [0, 5) then [5, 9)."""
    events = [(0, 0, "a", "start"), (5, 0, "a", "stop"), (5, 0, "a", "start"), (9, 0, "a", "stop")]
    pair(
        intervals_from_events,
        event_type,
        events,
        [Span(0, "a", 0, 5), Span(0, "a", 5, 9)],
        "at equal times, take the events in log order.",
    )


def test_a_start_and_stop_at_one_instant_is_a_zero_length_interval(
    intervals_from_events: Any, event_type: Any
) -> None:
    """Logged "start, stop" at 4: the interval [4, 4), kept (nothing is dropped)."""
    events = [(4, 2, "probe", "start"), (4, 2, "probe", "stop")]
    pair(
        intervals_from_events,
        event_type,
        events,
        [Span(2, "probe", 4, 4)],
        "at equal times, take the events in log order: start then stop is [t, t).",
    )


@st.composite
def consistent_logs(draw: st.DrawFn) -> tuple[list[tuple[int, int, str, str]], list[Span]]:
    """A log and the intervals it describes: per (GPU, job) strictly increasing times."""
    events, spans = [], []
    for gpu, job in draw(st.sets(st.tuples(st.integers(0, 3), st.sampled_from("abc")), max_size=5)):
        times = sorted(draw(st.sets(st.integers(0, UNTIL), max_size=6)))
        for i in range(0, len(times), 2):
            start = times[i]
            end = times[i + 1] if i + 1 < len(times) else UNTIL
            spans.append(Span(gpu, job, start, end))
            events.append((start, gpu, job, "start"))
            if i + 1 < len(times):
                events.append((end, gpu, job, "stop"))
    return draw(st.permutations(events)), spans


@given(consistent_logs())
def test_any_consistent_log_in_any_order_gives_back_its_intervals(
    intervals_from_events: Any,
    event_type: Any,
    log: tuple[list[tuple[int, int, str, str]], list[Span]],
) -> None:
    events, want = log
    pair(
        intervals_from_events,
        event_type,
        events,
        want,
        "pair each start with the next stop of the same (GPU, job), in time order.",
    )


BAD = {
    "a stop without a start": [(0, 0, "a", "start"), (5, 0, "a", "stop"), (8, 0, "a", "stop")],
    "a stop before its start": [(5, 0, "a", "stop"), (9, 0, "a", "start")],
    "a double start of a running job": [(0, 0, "a", "start"), (3, 0, "a", "start")],
    "a negative time": [(-1, 0, "a", "start")],
    "an unknown kind of event": [(0, 0, "a", "pause")],
    "an event after the end of the log": [(0, 0, "a", "start"), (UNTIL + 1, 0, "a", "stop")],
}


@pytest.mark.parametrize("case", BAD)
def test_an_inconsistent_log_raises_value_error(
    intervals_from_events: Any, event_type: Any, case: str
) -> None:
    """Nothing is silently dropped or guessed: the error names the event."""
    events = BAD[case]
    expect_value_error(
        lambda: intervals_from_events([event_type(*e) for e in events], until=UNTIL),
        f"intervals_from_events({[f'Event{e}' for e in events]}, until={UNTIL})",
        case,
    )
