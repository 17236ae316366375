"""WRONG: the acceptable pause widens the deviation instead of shifting the mean.

The pause is how long a silence is *expected* to last on top of the mean
interval; added to the deviation it flattens the curve, and a real failure
takes far longer to reach the threshold.
"""

from __future__ import annotations

from fractions import Fraction

from gallery.diagnosis.right_plain import PhiAccrual as Written

FAILS = "phi_value"


class PhiAccrual(Written):
    def statistics(self) -> tuple[Fraction, float]:
        mean, deviation = super().statistics()
        return mean - self.pause, deviation + self.pause  # the mistake
