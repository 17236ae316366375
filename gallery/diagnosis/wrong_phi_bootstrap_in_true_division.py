"""WRONG: the made-up first intervals computed with `/`, a quarter of the estimate as a float.

Akka's bootstrap is the estimate minus and plus a quarter of it, in integer
division: 750 and 1,250 for 1,000, but 752 and 1,252 for 1,002, where `/`
gives 751.5 and 1,252.5 and a different deviation.  Phi is then off for as
long as the bootstrap is in the window.
"""

from __future__ import annotations

from fractions import Fraction
from typing import cast

from gallery.diagnosis.right_plain import PhiAccrual as Written

FAILS = "phi_history"


class PhiAccrual(Written):
    def bootstrap(self) -> list[int]:
        quarter = Fraction(self.estimate, 4)  # the mistake: not an integer division
        made = [self.estimate - quarter, self.estimate + quarter][-self.size :]
        return cast("list[int]", made)  # Fractions, where ints belong: the mistake
