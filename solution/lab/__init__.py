"""The false-alarm lab: a seeded simulation of a job's heartbeats, every cause a switch.

``python -m solution lab`` runs it; `run` is one job with one cause, every
detector side by side.  See `solution.lab.run` for the metrics.
"""

from solution.lab.run import DETECTORS, Outcome, Quality, run
from solution.lab.scenarios import Cause, Job, causes

__all__ = ["DETECTORS", "Cause", "Job", "Outcome", "Quality", "causes", "run"]
