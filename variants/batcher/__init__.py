"""A request batcher: size and wait, a bounded queue, priorities, token budgets, cancellation.

The contract a candidate implements is `Batcher` and its records; see
`variants/batcher/README.md`.  `AsyncBatcher` drives it on an asyncio event
loop.
"""

from variants.batcher.core import Batcher
from variants.batcher.front import AsyncBatcher
from variants.batcher.records import Batch, Closed, Config, Decision, Ending, QueueFull, Request

__all__ = [
    "AsyncBatcher",
    "Batch",
    "Batcher",
    "Closed",
    "Config",
    "Decision",
    "Ending",
    "QueueFull",
    "Request",
]
