"""WRONG: Akka's formula transcribed literally: math.exp overflows.

Right after a heartbeat the silence is far below the mean, y is about -40
and exp(-y * (1.5976 + 0.070566 * y**2)) is e**4580: a Java double becomes
Infinity and phi 0, a Python float raises OverflowError.  Compute it in a
form that cannot overflow.
"""

from __future__ import annotations

import math
from fractions import Fraction

from gallery.diagnosis.right_plain import PhiAccrual as Written

FAILS = "phi_value"


class PhiAccrual(Written):
    def suspicion(self, now: int) -> float:
        if self.last is None:
            return 0.0
        mean, deviation = self.statistics()
        y = float((now - self.last - mean) / Fraction(deviation))
        e = math.exp(-y * (1.5976 + 0.070566 * y * y))  # the mistake: overflows
        if now - self.last > mean:
            return -math.log10(e / (1.0 + e))
        return -math.log10(1.0 - 1.0 / (1.0 + e))
