"""WRONG: the clock checked against the last heartbeat only.

A reading taken by phi() or is_available() is a reading too: a heartbeat
stamped before it goes back in time, and its interval is shorter than the
silence phi already judged.  Every call compares its one reading with the
last reading of any call.
"""

from __future__ import annotations

from gallery.diagnosis.right_plain import PhiAccrual as Written

FAILS = "diagnosis_validation"


class PhiAccrual(Written):
    def tick(self) -> int:
        now = self.clock()
        if self.last is not None and now < self.last:  # the mistake: the last heartbeat's only
            raise ValueError("the clock went back")
        return now
