"""GPU quotas for many tenants: guaranteed quotas, borrowing, preemption that never thrashes.

The contract a candidate implements is `Scheduler` and its records; see
`variants/quotas/README.md`.
"""

from variants.quotas.core import Scheduler
from variants.quotas.records import STATES, Decision, Job, Tenant

__all__ = ["STATES", "Decision", "Job", "Scheduler", "Tenant"]
