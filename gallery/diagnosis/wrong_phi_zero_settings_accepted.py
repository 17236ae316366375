"""WRONG: the settings checked for negatives only, so zeros are accepted.

A threshold of 0 suspects every process at once, a window of 0 intervals
keeps no history to compute a mean from, a deviation floor of 0 lets
perfectly regular heartbeats divide by zero, and a first estimate of 0
starts the history at intervals of 0.  Each must be above 0 (a window at
least 1); only the acceptable pause may be 0.
"""

from __future__ import annotations

import math
from collections.abc import Callable

from gallery.diagnosis.right_plain import PhiAccrual as Written

FAILS = "diagnosis_validation"


class PhiAccrual(Written):
    def __init__(
        self,
        *,
        clock: Callable[[], int],
        threshold: float = 8.0,
        max_sample_size: int = 1000,
        min_std_deviation: int = 100,
        acceptable_heartbeat_pause: int = 3000,
        first_heartbeat_estimate: int = 1000,
    ) -> None:
        settings = (threshold, max_sample_size, min_std_deviation, acceptable_heartbeat_pause)
        if min(settings) < 0 or first_heartbeat_estimate < 0:  # the mistake: `< 0`, not `<= 0`
            raise ValueError("settings must not be negative")
        self.clock, self.threshold, self.size = clock, threshold, max_sample_size
        self.floor, self.pause = min_std_deviation, acceptable_heartbeat_pause
        self.estimate = first_heartbeat_estimate
        self.history: list[int] = []
        self.last: int | None = None
        self.seen = -math.inf
