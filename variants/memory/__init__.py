"""Training batches without running out of memory: what a micro-batch costs, and a plan.

The contract a candidate implements is the names below; see
`variants/memory/README.md`.
"""

from variants.memory.core import (
    BYTES_PER_PARAMETER,
    RECOMPUTE,
    MicroBatch,
    Plan,
    Shape,
    activation_bytes,
    largest_batch,
    peak_bytes,
    plan_batches,
)

__all__ = [
    "BYTES_PER_PARAMETER",
    "RECOMPUTE",
    "MicroBatch",
    "Plan",
    "Shape",
    "activation_bytes",
    "largest_batch",
    "peak_bytes",
    "plan_batches",
]
