"""WRONG: a clock that goes back is taken as it comes.

A negative silence gives a meaningless phi, and a negative interval enters
the history.  The clock is the collector's monotonic clock: a reading
earlier than the last is a bug, and a ValueError.
"""

from __future__ import annotations

from gallery.diagnosis.right_plain import PhiAccrual as Written

FAILS = "diagnosis_validation"


class PhiAccrual(Written):
    def tick(self) -> int:
        return self.clock()  # the mistake: never compared with the last reading
