"""Half-open intervals, ends before starts: touching intervals neither overlap nor leave a gap."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tests.support.strategies import horizons, nonempty_logs
from tests.support.sweeping import HALF_OPEN, Span, Sweep, query

pytestmark = [pytest.mark.sweep_convention, pytest.mark.rules(1)]

TOUCHING = [Span(0, "a", 0, 5), Span(0, "b", 5, 9)]


def test_touching_intervals_leave_no_idle_gap(sweep: Sweep) -> None:
    """[0, 5) then [5, 9) on one GPU: busy without a break until 9."""
    sweep.check("idle_windows", TOUCHING, ((9, 12),), rule=HALF_OPEN, horizon=(0, 12))


def test_touching_intervals_do_not_overlap(sweep: Sweep) -> None:
    """Job a ends at 5 as job b starts at 5: they were never busy at the same instant."""
    sweep.check("overlapping_jobs", TOUCHING, (), rule=HALF_OPEN)


def test_touching_intervals_never_count_twice_at_the_peak(sweep: Sweep) -> None:
    """On two GPUs, [0, 5) on GPU 0 and [5, 9) on GPU 1: never more than one busy."""
    spans = [Span(0, "a", 0, 5), Span(1, "b", 5, 9)]
    sweep.check("peak_concurrency", spans, (1, (0, 9)), rule=HALF_OPEN, horizon=(0, 10))


def test_touching_intervals_in_either_order_of_the_log(sweep: Sweep) -> None:
    """The later interval listed first: ends still come before starts at equal times."""
    spans = [Span(1, "b", 5, 9), Span(0, "a", 0, 5)]
    sweep.check("peak_concurrency", spans, (1, (0, 9)), rule=HALF_OPEN, horizon=(0, 10))
    sweep.check("underused_windows", spans, ((0, 10),), rule=HALF_OPEN, horizon=(0, 10), below=2)


def test_touching_jobs_do_not_overlap_in_either_order_of_the_log(sweep: Sweep) -> None:
    """Job b, starting as job a ends, listed first: a sort by time alone keeps b's start
    ahead of a's end, and the two seem to overlap."""
    sweep.check("overlapping_jobs", [Span(0, "b", 5, 9), Span(0, "a", 0, 5)], (), rule=HALF_OPEN)


def test_an_interval_is_busy_at_its_start_and_free_at_its_end(sweep: Sweep) -> None:
    """[3, 4) is one tick busy: idle before 3 and from 4."""
    spans = [Span(0, "a", 3, 4)]
    sweep.check("idle_windows", spans, ((0, 3), (4, 6)), rule=HALF_OPEN, horizon=(0, 6))


@given(nonempty_logs, horizons, st.data())
def test_splitting_an_interval_into_two_touching_ones_changes_nothing(
    sweep: Sweep, spans: list[Span], horizon: tuple[int, int], data: st.DataObject
) -> None:
    """[s, e) is the same busy time as [s, m) + [m, e): no answer may tell them apart."""
    index = data.draw(st.integers(0, len(spans) - 1), label="index")
    target = spans[index]
    cut = data.draw(st.integers(target.start, target.end), label="cut")
    split = [
        *spans[:index],
        target._replace(end=cut),
        target._replace(start=cut),
        *spans[index + 1 :],
    ]
    sweep.check("idle_windows", split, rule=HALF_OPEN, horizon=horizon)
    sweep.check("overlapping_jobs", split, rule=HALF_OPEN)
    sweep.holds(
        [
            query("idle_windows", spans, horizon=horizon),
            query("idle_windows", split, horizon=horizon),
        ],
        lambda whole, parts: whole == parts,
        claim=f"splitting {target} at {cut} changed the idle windows",
        rule=HALF_OPEN,
    )
