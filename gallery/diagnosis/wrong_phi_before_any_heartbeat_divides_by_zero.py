"""WRONG: phi computed from the history even before the first heartbeat, when it is empty.

With no heartbeat yet there is no history: its mean is a division by zero,
and phi() (or is_available()) on a detector just created raises
ZeroDivisionError.  A collector that asks about a process before its first
heartbeat crashes.  Before any heartbeat phi is 0.0: nothing is suspected
of a process not yet heard.
"""

from __future__ import annotations

import math
from fractions import Fraction

from gallery.diagnosis.right_plain import PhiAccrual as Written

FAILS = "phi_history"


class PhiAccrual(Written):
    def suspicion(self, now: int) -> float:
        mean, deviation = self.statistics()  # the mistake: no "not heard yet" case first
        last = now if self.last is None else self.last
        y = float((now - last - mean) / Fraction(deviation))
        z = y * (1.5976 + 0.070566 * y * y)
        return (max(z, 0.0) + math.log1p(math.exp(-abs(z)))) / math.log(10)
