"""WRONG: the interval that ended a suspicion is recorded like any other.

One 20 s pause enters the history: the mean and the deviation jump, and the
next real failure takes far longer to suspect.  Akka leaves it out.
"""

from __future__ import annotations

from gallery.diagnosis.right_plain import PhiAccrual as Written

FAILS = "phi_history"


class PhiAccrual(Written):
    def heartbeat(self) -> None:
        now = self.tick()
        if self.last is None:
            self.history = self.bootstrap()
        else:
            self.history = [*self.history, now - self.last][-self.size :]  # the mistake
        self.last = now
