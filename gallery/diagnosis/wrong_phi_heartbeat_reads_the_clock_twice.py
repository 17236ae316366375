"""WRONG: a heartbeat reads the clock twice, once to judge the interval and once to record it.

With a clock that moves between the two readings (a real one always may),
the interval judged and the time recorded are not of the same instant.
One reading per call, used for everything the call does.
"""

from __future__ import annotations

from gallery.diagnosis.right_plain import PhiAccrual as Written

FAILS = "diagnosis_validation"


class PhiAccrual(Written):
    def heartbeat(self) -> None:
        if self.last is None:
            self.history = self.bootstrap()
        elif self.suspicion(self.tick()) < self.threshold:  # the mistake: one reading here
            self.history = [*self.history, self.tick() - self.last][-self.size :]  # and here
        self.last = self.tick()  # and a third
