"""WRONG: the history starts empty, with no made-up intervals.

Until the second heartbeat there is nothing to compute a mean from; a
process heard once and then silent is never suspected (here: phi stays 0).
Akka starts the history with the first estimate -/+ a quarter of it.
"""

from __future__ import annotations

from gallery.diagnosis.right_plain import PhiAccrual as Written

FAILS = "phi_history"


class PhiAccrual(Written):
    def bootstrap(self) -> list[int]:
        return []  # the mistake

    def suspicion(self, now: int) -> float:
        if not self.history:
            return 0.0
        return super().suspicion(now)
