"""WRONG: a process still available when phi equals the threshold (`<=`, not `<`).

The threshold is the suspicion level at which the detector gives up on a
process: reaching it is suspicious, as a silence of exactly the timeout is in
the detector's own comparison turned around.  Available while `phi < threshold`.
"""

from __future__ import annotations

from gallery.diagnosis.right_plain import PhiAccrual as Written

FAILS = "phi_value"


class PhiAccrual(Written):
    def is_available(self) -> bool:
        return self.suspicion(self.tick()) <= self.threshold  # the mistake: <=
