"""The rubric: each point an interviewer scores, and the tests that evidence it.

Every test in the kata carries exactly one of these as a marker
(``@pytest.mark.boundary``); `conftest.py` registers them, so a misspelt
marker is an error, and the scorecard groups results by them.  Variants add
their own points here as they land.
"""

from __future__ import annotations

from typing import NamedTuple


class Point(NamedTuple):
    exercise: str  # the exercise the point is about, for the scorecard
    title: str
    # "tests": scored by the suite.  "benchmark": scored by a benchmark check
    # (benchmarks/), because what it asks is a cost, and tests are not timed.
    evidence: str = "tests"


POINTS: dict[str, Point] = {
    "receive_clock": Point("detect", "The collector's receive clock, never sender timestamps"),
    "boundary": Point("detect", "The exact boundary: reported iff silence > timeout"),
    "never_heard": Point("detect", "Never-heard ranks are silent since start"),
    "replay": Point("detect", "Replay as of now: later heartbeats ignored, those at now counted"),
    "input_order": Point("detect", "The latest heartbeat, whatever the input order"),
    "ordering": Point("detect", "Ordered by silence, so the first rank to stop comes first"),
    "oracle": Point("detect", "Every small case agrees with a brute-force oracle"),
    "validation": Point("all", "Bad input raises ValueError; nothing is silently dropped"),
    "threshold": Point("misses_for_budget", "The threshold from a false-positive budget, exactly"),
    "monitor": Point("HeartbeatMonitor", "The streaming monitor agrees with detect at every step"),
    # variants/sweep: sweep-line utilization
    "sweep_convention": Point(
        "sweep", "Half-open intervals, ends before starts: touching ones neither overlap nor gap"
    ),
    "sweep_edges": Point("sweep", "Zero-length intervals, horizon and bucket edges, empty logs"),
    "sweep_events": Point(
        "sweep", "Event logs paired exactly: unterminated starts kept, inconsistencies refused"
    ),
    "sweep_windows": Point("sweep", "Idle and underused windows, maximal, exactly"),
    "sweep_utilization": Point("sweep", "Utilization per bucket, in exact arithmetic"),
    "sweep_overlaps": Point("sweep", "Every pair of overlapping jobs, once each"),
    "sweep_peak": Point("sweep", "Peak concurrency, and the first window it held"),
    "sweep_scaling": Point(
        "sweep", "Overlaps in O(n log n + pairs), not O(n**2)", evidence="benchmark"
    ),
}

# The points the suite's tests score (a benchmark scores the others).
TESTED = [name for name, point in POINTS.items() if point.evidence == "tests"]

# Tests of the reference itself (its CLI, demo and write-up), not of the contract:
# they are not run against a candidate's module.
REFERENCE_ONLY = "reference"
