"""Half-open intervals, ends before starts: touching intervals neither overlap nor leave a gap."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tests.support.sweeping import (
    HALF_OPEN,
    Span,
    Sweeper,
    as_peak,
    as_windows,
    check_windows,
    fail,
    horizons,
    nonempty_logs,
    overlaps_oracle,
)

pytestmark = pytest.mark.sweep_convention

TOUCHING = [Span(0, "a", 0, 5), Span(0, "b", 5, 9)]


def test_touching_intervals_leave_no_idle_gap(idle_windows: Sweeper) -> None:
    """[0, 5) then [5, 9) on one GPU: busy without a break until 9."""
    check_windows(idle_windows, TOUCHING, [(9, 12)], HALF_OPEN, horizon=(0, 12))


def test_touching_intervals_do_not_overlap(overlapping_jobs: Sweeper) -> None:
    """Job a ends at 5 as job b starts at 5: they were never busy at the same instant."""
    got = overlapping_jobs(TOUCHING)
    if list(map(tuple, got)) != []:
        fail(overlapping_jobs.describe(TOUCHING, {}), str(got), "[]", HALF_OPEN)


def test_touching_intervals_never_count_twice_at_the_peak(peak_concurrency: Sweeper) -> None:
    """On two GPUs, [0, 5) on GPU 0 and [5, 9) on GPU 1: never more than one busy."""
    spans = [Span(0, "a", 0, 5), Span(1, "b", 5, 9)]
    got = as_peak(peak_concurrency(spans, horizon=(0, 10)))
    if got != (1, (0, 9)):
        call = peak_concurrency.describe(spans, {"horizon": (0, 10)})
        fail(call, str(got), "(1, (0, 9))", HALF_OPEN)


@given(nonempty_logs, horizons, st.data())
def test_splitting_an_interval_into_two_touching_ones_changes_nothing(
    idle_windows: Sweeper,
    overlapping_jobs: Sweeper,
    spans: list[Span],
    horizon: tuple[int, int],
    data: st.DataObject,
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
    whole, parts = (
        as_windows(idle_windows(spans, horizon=horizon)),
        as_windows(idle_windows(split, horizon=horizon)),
    )
    if whole != parts:
        fail(
            idle_windows.describe(split, {"horizon": horizon}),
            str(parts),
            str(whole),
            f"splitting {target} at {cut} changed the idle windows. " + HALF_OPEN,
        )
    before, after = (
        list(map(tuple, overlapping_jobs(spans))),
        list(map(tuple, overlapping_jobs(split))),
    )
    if before != after or before != overlaps_oracle(spans):
        fail(
            overlapping_jobs.describe(split, {}),
            str(after),
            str(overlaps_oracle(spans)),
            f"splitting {target} at {cut} changed the overlaps. " + HALF_OPEN,
        )
