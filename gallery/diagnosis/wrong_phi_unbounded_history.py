"""WRONG: every interval is kept; max_sample_size is ignored.

Memory grows with the process's lifetime, and the statistics stop adapting:
an hour of steady heartbeats outweighs the last minute's jitter.
"""

from __future__ import annotations

from gallery.diagnosis.right_plain import PhiAccrual as Written

FAILS = "phi_history"


class PhiAccrual(Written):
    def heartbeat(self) -> None:
        now = self.tick()
        if self.last is None:
            self.history = self.bootstrap()
        elif self.suspicion(now) < self.threshold:
            self.history = [*self.history, now - self.last]  # the mistake: no window
        self.last = now
