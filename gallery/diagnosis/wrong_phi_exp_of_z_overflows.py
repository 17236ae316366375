"""WRONG: phi = log10(1 + exp(z)) transcribed literally: math.exp overflows.

The contract's form of phi is exact mathematics, not a way to compute it:
after a long silence z passes 709 and exp(z) overflows a float, so phi()
raises OverflowError exactly when a rank is most suspect.  For a large z,
log10(1 + e**z) is z / ln 10 to within a float's precision: compute it in a
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
        z = y * (1.5976 + 0.070566 * y * y)
        return math.log10(1.0 + math.exp(z))  # the mistake: e**z past 709 overflows
