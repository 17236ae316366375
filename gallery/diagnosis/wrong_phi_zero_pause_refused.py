"""WRONG: an acceptable pause of 0 refused, as if every setting had to be above 0.

The threshold, the window, the deviation floor and the first estimate must
each be above 0; the acceptable pause is the one that may be 0: no pause
allowed beyond the mean, a detector as eager as the statistics alone make
it, is a setting (Akka's default is 3 s, but 0 is legal), not an error.
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
        if min(settings) <= 0 or first_heartbeat_estimate <= 0:  # the mistake: the pause too
            raise ValueError("settings must be above 0")
        self.clock, self.threshold, self.size = clock, threshold, max_sample_size
        self.floor, self.pause = min_std_deviation, acceptable_heartbeat_pause
        self.estimate = first_heartbeat_estimate
        self.history: list[int] = []
        self.last: int | None = None
        self.seen = -math.inf
