"""WRONG: the sample deviation (n - 1), as statistics.stdev computes it.

Akka's history uses the population deviation (divide by n).  The difference
is small with 1,000 samples and large with the bootstrap's two: the
contract is Akka's.
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
        squares = sum((x - mean) ** 2 for x in self.history)
        variance = squares / (n - 1) if n > 1 else Fraction(0)  # the mistake: n - 1
        return mean + self.pause, max(math.sqrt(variance), self.floor)
