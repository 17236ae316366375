"""A GPU credit scheduler: credits and cost, priority, refunds, reservations, limits, fairness.

The contract a candidate implements is `Scheduler` and its records; see
`variants/credits/README.md`.
"""

from variants.credits.core import Scheduler
from variants.credits.records import STATES, Balance, Config, Job

__all__ = ["STATES", "Balance", "Config", "Job", "Scheduler"]
