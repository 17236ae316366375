"""WRONG: min_std_deviation ignored.

Perfectly regular heartbeats have a deviation of 0: one millisecond past the
mean is then infinitely unlikely, and the process is suspected at once.
The floor keeps normal jitter from looking like a failure.
"""

from __future__ import annotations

import math
from fractions import Fraction

from gallery.diagnosis.right_plain import PhiAccrual as Written

FAILS = "phi_value"


class PhiAccrual(Written):
    def statistics(self) -> tuple[Fraction, float]:
        n = len(self.history)
        mean = Fraction(sum(self.history), n)
        variance = Fraction(sum(x * x for x in self.history), n) - mean**2
        return mean + self.pause, max(math.sqrt(variance), 1e-9)  # the mistake: no floor
