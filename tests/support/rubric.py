"""The rubric: each point an interviewer scores, and the tests that evidence it.

Every test in the kata carries exactly one of these as a marker
(``@pytest.mark.boundary``); `conftest.py` registers them, so a misspelt
marker is an error, and the scorecard groups results by them.  Variants add
their own points here as they land.
"""

from __future__ import annotations

from typing import NamedTuple


class Point(NamedTuple):
    exercise: str  # the function or class the point is about, for the scorecard
    title: str


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
}

# Tests of the reference itself (its CLI, demo and write-up), not of the contract:
# they are not run against a candidate's module.
REFERENCE_ONLY = "reference"
