"""Sweep-line utilization: when was the cluster idle, how busy per hour, which jobs overlapped.

The contract a candidate implements is the names below; see
`variants/sweep/README.md`.
"""

from variants.sweep.events import Event, intervals_from_events
from variants.sweep.sweep import (
    Busy,
    Peak,
    Window,
    idle_windows,
    overlapping_jobs,
    peak_concurrency,
    underused_windows,
    utilization,
)

__all__ = [
    "Busy",
    "Event",
    "Peak",
    "Window",
    "idle_windows",
    "intervals_from_events",
    "overlapping_jobs",
    "peak_concurrency",
    "underused_windows",
    "utilization",
]
